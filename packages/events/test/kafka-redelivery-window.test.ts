// How long the broker may deliver a topic's events again, read from the topics' own settings:
// what a consumer's inbox (its duplicate guard) must remember at least.
import { randomUUID } from 'node:crypto';
import { startKafka, type KafkaHandle } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaBus } from '../src/index.ts';
import { kafkaAdmin } from './helpers.ts';

let kafka: KafkaHandle;

beforeAll(async () => {
  kafka = await startKafka();
}, 180_000);

afterAll(async () => {
  await kafka?.stop();
}, 60_000);

const DAY = 86_400_000;

describe('KafkaBus.redeliveryWindowMs', () => {
  it('when topics keep events for a time, then it is the longest retention plus segment age; compacted or unlimited topics are for ever', async () => {
    const prefix = `window-${randomUUID().slice(0, 8)}.`;
    const admin = await kafkaAdmin(kafka.brokers, 'window-test');
    const bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'window-test', topicPrefix: prefix });
    const topic = (name: string, config: Record<string, string>) => ({
      topic: prefix + name,
      numPartitions: 1,
      configEntries: Object.entries(config).map(([name, value]) => ({ name, value })),
    });
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [
          topic('week', { 'retention.ms': String(7 * DAY), 'segment.ms': String(DAY) }),
          topic('days', { 'retention.ms': String(2 * DAY), 'segment.ms': String(3 * DAY) }),
          topic('compacted', { 'cleanup.policy': 'compact' }),
          topic('unlimited', { 'retention.ms': '-1' }),
        ],
      });
      await expect(bus.redeliveryWindowMs(['week', 'days'])).resolves.toBe(8 * DAY);
      await expect(bus.redeliveryWindowMs(['days'])).resolves.toBe(5 * DAY);
      await expect(bus.redeliveryWindowMs(['week', 'compacted'])).resolves.toBe(Infinity);
      await expect(bus.redeliveryWindowMs(['unlimited'])).resolves.toBe(Infinity);
      await expect(bus.redeliveryWindowMs([])).resolves.toBe(0);
    } finally {
      await bus.stop();
      await admin.disconnect();
    }
  }, 120_000);
});
