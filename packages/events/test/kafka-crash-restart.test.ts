// KafkaJS restarts a crashed consumer only after an error it classes as retriable; after any other
// (e.g. "Failed to find group coordinator" while a broker stops) the consumer stays down and the
// replica would serve on without that group until it is restarted. The bus starts it again.
//
// The crash is forced deterministically: a message whose handler keeps failing goes to
// `<topic>.dlq`, and that topic is made with a record-size limit no record meets, so the
// dead-letter send fails with MESSAGE_TOO_LARGE, which is not retriable.
import { randomUUID } from 'node:crypto';
import { startKafka, type KafkaHandle } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dlqTopic, KafkaBus, type BusMessage } from '../src/index.ts';
import { kafkaAdmin, waitFor } from './helpers.ts';

let kafka: KafkaHandle;

beforeAll(async () => {
  kafka = await startKafka();
}, 180_000);

afterAll(async () => {
  await kafka?.stop();
}, 60_000);

describe('KafkaBus after a consumer crash KafkaJS does not restart', () => {
  it('when the consumer crashes with a non-retriable error, then the bus starts it again and the group goes on consuming', async () => {
    const prefix = `crash-${randomUUID().slice(0, 8)}.`;
    const topic = `${prefix}things`;
    const admin = await kafkaAdmin(kafka.brokers, 'crash-test-admin');
    const crashes: { restart: unknown }[] = [];
    const restarts: { attempt: number; at: number }[] = [];
    const logger = {
      info: (fields: object, message: string) => {
        if (message === 'restarting kafka consumer')
          restarts.push({ attempt: (fields as { attempt: number }).attempt, at: Date.now() });
      },
      error: () => {},
      warn: (fields: object, message: string) => {
        if (message === 'kafka consumer crashed') crashes.push(fields as { restart: unknown });
      },
    };
    const bus = new KafkaBus({
      brokers: kafka.brokers,
      clientId: 'crash-test',
      topicPrefix: prefix,
      numPartitions: 1,
      logger,
      retry: { attempts: 1 },
    });
    const handled: string[] = [];
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [
          { topic, numPartitions: 1 },
          { topic: dlqTopic(topic), numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: '1' }] },
        ],
      });
      await bus.subscribe({
        groupId: `${prefix}group`,
        topics: ['things'],
        handler: async (message: BusMessage) => {
          const key = message.key;
          if (key === 'poison') throw new Error('this event cannot be handled');
          handled.push(key);
        },
      });
      await bus.publish([{ topic: 'things', key: 'before', value: new Uint8Array([1]), headers: {} }]);
      await waitFor('the first event', async () => handled.includes('before'), 60_000);
      expect(bus.isReady()).toBe(true);

      await bus.publish([{ topic: 'things', key: 'poison', value: new Uint8Array([2]), headers: {} }]);
      await waitFor('the non-retriable crash', async () => crashes.some((crash) => crash.restart === false), 60_000);
      // The event cannot be got past: the consumer joins, crashes on it again, and backs off longer
      // each time (1 s, then 2 s) rather than joining and leaving its group every second.
      await waitFor('the third restart', async () => restarts.length >= 3, 60_000);
      expect(restarts.slice(0, 3).map((r) => r.attempt)).toEqual([1, 2, 3]);
      expect(restarts[2]!.at - restarts[1]!.at).toBeGreaterThan(restarts[1]!.at - restarts[0]!.at);

      // The dead-letter topic takes records again: the restarted consumer sets the event aside
      // and handles what comes after it.
      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          { type: 2, name: dlqTopic(topic), configEntries: [{ name: 'max.message.bytes', value: '1048588' }] },
        ],
      });
      await bus.publish([{ topic: 'things', key: 'after', value: new Uint8Array([3]), headers: {} }]);
      await waitFor('the event after the crash', async () => handled.includes('after'), 90_000);
      await waitFor('the group to count as joined again', async () => bus.isReady(), 30_000);
      expect(handled).toEqual(['before', 'after']);
    } finally {
      await bus.stop();
      await admin.deleteTopics({ topics: [topic, dlqTopic(topic)] }).catch(() => {});
      await admin.disconnect();
    }
  }, 240_000);
});
