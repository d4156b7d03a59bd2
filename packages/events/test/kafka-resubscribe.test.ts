// A service serves before its consumer groups have joined (readiness is "can serve requests"), so
// subscribing may meet a broker that is away: the subscription fails, leaves nothing half-made,
// and the same group can subscribe again once the broker is back (service-kit retries it).
import { randomUUID } from 'node:crypto';
import { startKafka, type KafkaHandle } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaBus, type BusMessage } from '../src/index.ts';
import { waitFor } from './helpers.ts';

let kafka: KafkaHandle;

beforeAll(async () => {
  // A broker of our own: the test stops and restarts it.
  kafka = await startKafka({ dedicated: true });
}, 180_000);

afterAll(async () => {
  await kafka?.stop();
}, 60_000);

describe('KafkaBus.subscribe while the broker is away', () => {
  it('when a subscription fails because the broker is down, then the same group subscribes once it is back and receives events', async () => {
    const prefix = `resub-${randomUUID().slice(0, 8)}.`;
    const bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'resubscribe-test', topicPrefix: prefix });
    const received: BusMessage[] = [];
    const subscription = {
      groupId: `${prefix}group`,
      topics: ['things'],
      handler: async (message: BusMessage) => {
        received.push(message);
      },
    };
    try {
      // The topics exist (another group made them): what fails below is joining, not creating.
      await bus.subscribe({ ...subscription, groupId: `${prefix}other`, handler: async () => {} });
      await kafka.stopBroker();
      await expect(bus.subscribe(subscription)).rejects.toThrow();
      await kafka.startBroker();
      await bus.subscribe(subscription);
      await waitFor('the publish', async () => {
        await bus.publish([{ topic: 'things', key: 'k', value: new Uint8Array([1]), headers: {} }]);
        return true;
      });
      await waitFor('the event to arrive', async () => received.length > 0, 60_000);
      expect(received[0]!.key).toBe('k');
    } finally {
      await bus.stop();
    }
  }, 180_000);
});
