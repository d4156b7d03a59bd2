// One contract for both transports: outbox -> relay -> bus -> inbox handler, against real
// Postgres and (for Kafka) a real broker.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startKafka, startPostgres, type KafkaHandle, type PostgresHandle } from '@checkpoint/testkit';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DLQ_ERROR_HEADER,
  InProcessBus,
  KafkaBus,
  OutboxRelay,
  dlqTopic,
  enqueueTombstone,
  fromBinary,
  topicFor,
  UserRegisteredSchema,
  type Bus,
  type BusMessage,
  type RetryPolicy,
} from '../src/index.ts';
import { count, createServiceSchema, enqueueUsers, pgRunner, schemaPool, waitFor, type PgRunner } from './helpers.ts';
import { effectsConsumer } from './fixtures/effects.ts';

const TOPIC = topicFor(UserRegisteredSchema);
const fastRetry: Partial<RetryPolicy> = { attempts: 3, initialDelayMs: 50 };

let postgres: PostgresHandle;
let kafka: KafkaHandle | undefined;

beforeAll(async () => {
  // A broker of our own: the outage test stops and restarts it.
  [postgres, kafka] = await Promise.all([startPostgres(), startKafka({ dedicated: true })]);
}, 180_000);

afterAll(async () => {
  await Promise.all([postgres?.stop(), kafka?.stop()]);
}, 60_000);

/** What differs between transports; everything else in this file is the shared contract. */
interface Transport {
  name: string;
  /** One bus per "process"; `prefix` isolates tests that share a Kafka broker. */
  createBus(prefix: string, retry?: Partial<RetryPolicy>): Bus;
  /** Makes the bus unavailable to publishers, then brings it back. */
  outage(bus: Bus): { down(): Promise<void>; up(): Promise<void> };
  /** Messages set aside after failing every retry, as seen by an operator. */
  deadLetters(bus: Bus, prefix: string): Promise<() => { key: string; error: string }[]>;
}

/** Lets the in-process transport simulate an outage: publish fails while `down`. */
class SwitchableBus extends InProcessBus {
  down = false;
  override async publish(messages: BusMessage[]): Promise<void> {
    if (this.down) throw new Error('bus unavailable');
    return super.publish(messages);
  }
}

const kafkaTransport: Transport = {
  name: 'kafka',
  createBus: (prefix, retry) =>
    new KafkaBus({
      brokers: kafka!.brokers,
      clientId: `test-${prefix}`,
      topicPrefix: prefix,
      retry,
      numPartitions: 3,
      sessionTimeoutMs: 6000,
    }),
  outage: () => ({ down: () => kafka!.stopBroker(), up: () => kafka!.startBroker() }),
  async deadLetters(_bus, prefix) {
    const seen: { key: string; error: string }[] = [];
    const reader = kafkaTransport.createBus(prefix);
    cleanups.push(() => reader.stop());
    await reader.subscribe({
      groupId: `dlq-reader-${randomUUID()}`,
      topics: [dlqTopic(TOPIC)],
      handler: async (message) => {
        seen.push({ key: message.key, error: message.headers[DLQ_ERROR_HEADER] ?? '' });
      },
    });
    return () => seen;
  },
};

const inProcessTransport: Transport = {
  name: 'in-process',
  createBus: (_prefix, retry) => new SwitchableBus({ retry }),
  outage: (bus) => ({
    down: async () => {
      (bus as SwitchableBus).down = true;
    },
    up: async () => {
      (bus as SwitchableBus).down = false;
    },
  }),
  async deadLetters(bus) {
    return () => (bus as InProcessBus).deadLetters.map((d) => ({ key: d.message.key, error: d.error }));
  },
};

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  // Reverse order: relays before buses before pools.
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
}, 60_000);

interface Service {
  schema: string;
  prefix: string;
  pool: pg.Pool;
  db: PgRunner;
}

async function newService(): Promise<Service> {
  const id = randomUUID().slice(0, 8);
  const schema = `svc_${id}`;
  await createServiceSchema(postgres.url, schema);
  const pool = schemaPool(postgres.url, schema);
  cleanups.push(() => pool.end());
  return { schema, prefix: `t${id}.`, pool, db: pgRunner(pool) };
}

function startRelay(service: Service, bus: Bus, batchSize = 10): OutboxRelay {
  const relay = new OutboxRelay({ pool: service.pool, bus, batchSize, pollIntervalMs: 200, maxBackoffMs: 1000 });
  cleanups.push(() => relay.stop());
  void relay.start();
  return relay;
}

function track(bus: Bus): Bus {
  cleanups.push(() => bus.stop());
  return bus;
}

const effectCount = (service: Service, groupId: string) =>
  count(service.db, 'select count(*) as n from effects where group_id = $1', groupId);

describe.each([kafkaTransport, inProcessTransport])('bus contract: $name', (transport) => {
  it('when events of several aggregates are interleaved, then each aggregate is handled in order and once', async () => {
    const service = await newService();
    const bus = track(transport.createBus(service.prefix));
    await bus.subscribe({ groupId: 'ordering', topics: [TOPIC], ...effectsConsumer(service.db, 'ordering') });
    const keys = ['user-a', 'user-b', 'user-c', 'user-d'];
    await enqueueUsers(service.db, Array.from({ length: 15 }, (_, seq) => keys.map((key) => ({ key, seq }))).flat());
    startRelay(service, bus, 7);

    await waitFor('60 effects', async () => (await effectCount(service, 'ordering')) >= 60, 45_000);
    const rows = await service.db.$queryRawUnsafe<{ key: string; seq: number }[]>(
      "select key, seq from effects where group_id = 'ordering' order by id",
    );
    expect(rows).toHaveLength(60);
    for (const key of keys) {
      expect(rows.filter((r) => r.key === key).map((r) => r.seq)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    }
    expect(await count(service.db, 'select count(*) as n from outbox where published_at is null')).toBe(0);
  }, 60_000);

  it('when a consumer is killed mid-batch, then a new consumer in the same group produces each effect exactly once', async () => {
    const service = await newService();
    const groupId = 'crash';
    await enqueueUsers(
      service.db,
      Array.from({ length: 30 }, (_, seq) => ({ key: `user-${seq % 3}`, seq })),
    );
    const producer = transport.name === 'kafka' ? track(transport.createBus(service.prefix)) : undefined;
    if (producer) {
      const relay = startRelay(service, producer, 100);
      await waitFor(
        'outbox published',
        async () => (await count(service.db, 'select count(*) as n from outbox where published_at is null')) === 0,
        30_000,
      );
      await relay.stop();
    }

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/crashing-consumer.ts', import.meta.url))],
      {
        env: {
          ...process.env,
          TRANSPORT: transport.name,
          DB_URL: postgres.url,
          SCHEMA: service.schema,
          BROKERS: kafka?.brokers ?? '',
          PREFIX: service.prefix,
          GROUP_ID: groupId,
          CRASH_AFTER: '10',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exit = await Promise.race([
      new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal))),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 45_000)),
    ]);
    if (exit === 'timeout') child.kill('SIGKILL');
    expect(exit, output).toBe('SIGKILL');
    const before = await effectCount(service, groupId);
    expect(before).toBeGreaterThanOrEqual(10);
    expect(before).toBeLessThan(30);

    // The replacement consumer: redelivered events hit the inbox and are skipped.
    let deliveries = 0;
    const bus = track(transport.createBus(service.prefix));
    const { handler } = effectsConsumer(service.db, groupId);
    await bus.subscribe({
      groupId,
      topics: [TOPIC],
      handler: async (message) => {
        deliveries++;
        await handler(message);
      },
    });
    if (transport.name !== 'kafka') startRelay(service, bus, 100);

    await waitFor('30 effects', async () => (await effectCount(service, groupId)) >= 30, 45_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await effectCount(service, groupId)).toBe(30);
    expect(await count(service.db, 'select count(*) as n from (select distinct event_id from effects) e')).toBe(30);
    expect(await count(service.db, 'select count(*) as n from inbox where consumer_group = $1', groupId)).toBe(30);
    // Some events the killed consumer had handled were delivered again and skipped.
    expect(deliveries).toBeGreaterThan(30 - before);
  }, 120_000);

  it('when the broker is down, then writes still commit and their events arrive once it is back', async () => {
    const service = await newService();
    const bus = track(transport.createBus(service.prefix));
    await bus.subscribe({ groupId: 'outage', topics: [TOPIC], ...effectsConsumer(service.db, 'outage') });
    startRelay(service, bus);
    await enqueueUsers(service.db, [{ key: 'user-a', seq: 0 }]);
    await waitFor('first effect', async () => (await effectCount(service, 'outage')) === 1, 30_000);

    const outage = transport.outage(bus);
    await outage.down();
    try {
      // Requests keep succeeding: the outbox write is a plain local transaction.
      await enqueueUsers(
        service.db,
        [1, 2, 3, 4].map((seq) => ({ key: 'user-a', seq })),
      );
      await waitFor(
        'a failed publish attempt recorded',
        async () =>
          (await count(
            service.db,
            'select count(*) as n from outbox where published_at is null and attempts > 0 and last_error is not null',
          )) > 0,
        30_000,
      );
      expect(await effectCount(service, 'outage')).toBe(1);
    } finally {
      await outage.up();
    }

    await waitFor('all effects after recovery', async () => (await effectCount(service, 'outage')) >= 5, 90_000);
    const seqs = await service.db.$queryRawUnsafe<{ seq: number }[]>(
      "select seq from effects where group_id = 'outage' order by id",
    );
    expect(seqs.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
  }, 150_000);

  it('when a message keeps failing, then it is dead-lettered and later messages still flow', async () => {
    const service = await newService();
    const bus = track(transport.createBus(service.prefix, fastRetry));
    const deadLetters = await transport.deadLetters(bus, service.prefix);
    await bus.subscribe({ groupId: 'poison', topics: [TOPIC], ...effectsConsumer(service.db, 'poison') });
    await enqueueUsers(service.db, [
      { key: 'user-a', seq: 0 },
      { key: 'user-a', seq: 1, email: 'poison@example.test' },
      { key: 'user-a', seq: 2 },
      { key: 'user-b', seq: 0 },
    ]);
    startRelay(service, bus);

    await waitFor('3 effects', async () => (await effectCount(service, 'poison')) >= 3, 45_000);
    const letters = await waitFor('a dead letter', async () => deadLetters().length > 0 && deadLetters(), 45_000);
    expect(letters).toHaveLength(1);
    expect(letters[0]!.key).toBe('user-a');
    expect(letters[0]!.error).toContain('poison message for user-a');
    const seqs = await service.db.$queryRawUnsafe<{ key: string; seq: number }[]>(
      "select key, seq from effects where group_id = 'poison' order by key, seq",
    );
    expect(seqs).toEqual([
      { key: 'user-a', seq: 0 },
      { key: 'user-a', seq: 2 },
      { key: 'user-b', seq: 0 },
    ]);
  }, 120_000);

  it('when an event type is unknown or has no handler, then it is acknowledged and skipped', async () => {
    const service = await newService();
    const bus = track(transport.createBus(service.prefix, fastRetry));
    const deadLetters = await transport.deadLetters(bus, service.prefix);
    await bus.subscribe({ groupId: 'unknown', topics: [TOPIC], ...effectsConsumer(service.db, 'unknown') });
    // A type from a newer producer that this build does not know, then a known one without a handler.
    for (const type of ['checkpoint.identity.v1.UserTeleported', 'checkpoint.identity.v1.UserDeleted']) {
      const id = randomUUID();
      const headers = {
        ce_specversion: '1.0',
        ce_id: id,
        ce_type: type,
        ce_source: 'identity',
        ce_time: new Date().toISOString(),
        ce_tenantid: 't',
        'content-type': 'application/protobuf',
      };
      await service.db.$executeRawUnsafe(
        "insert into outbox (id, topic, key, type, tenant_id, payload, headers) values ($1::uuid, $2, 'user-a', $3, 't', $4, $5::jsonb)",
        id,
        TOPIC,
        type,
        Buffer.from([0x0a, 0x01, 0x78]),
        JSON.stringify(headers),
      );
    }
    await enqueueUsers(service.db, [{ key: 'user-a', seq: 7 }]);
    startRelay(service, bus);

    await waitFor('the known event handled', async () => (await effectCount(service, 'unknown')) === 1, 45_000);
    expect(await count(service.db, "select count(*) as n from inbox where consumer_group = 'unknown'")).toBe(1);
    expect(deadLetters()).toEqual([]);
  }, 120_000);

  // Privacy operations (docs/adr/009): the key of a deleted user is closed with a tombstone.
  it('when a tombstone follows a key, then it arrives as one (a null value on Kafka), the inbox skips it, and its outbox row is gone', async () => {
    const service = await newService();
    const bus = track(transport.createBus(service.prefix, fastRetry));
    const deadLetters = await transport.deadLetters(bus, service.prefix);
    const seen: BusMessage[] = [];
    const inbox = effectsConsumer(service.db, 'tomb');
    await bus.subscribe({
      groupId: 'tomb',
      topics: [TOPIC],
      handler: async (message) => {
        seen.push(message);
        await inbox.handler(message);
      },
    });
    await enqueueUsers(service.db, [{ key: 'user-t', seq: 1 }]);
    await enqueueTombstone(service.db, { schema: UserRegisteredSchema, key: 'user-t', tenantId: 't' });
    startRelay(service, bus);

    await waitFor('the event and the tombstone', async () => seen.length >= 2, 45_000);
    expect(seen.map((m) => [m.key, m.tombstone ?? false])).toEqual([
      ['user-t', false],
      ['user-t', true],
    ]);
    expect(await effectCount(service, 'tomb')).toBe(1);
    // The relay deletes a published tombstone's row after the bus took it; the in-process bus has
    // handed it to the consumer by then, so the row may still be there for a moment.
    await waitFor(
      "the tombstone's outbox row gone",
      async () => (await count(service.db, "select count(*) as n from outbox where type = 'tombstone'")) === 0,
      10_000,
    );
    expect(deadLetters()).toEqual([]);
  }, 120_000);
});

describe('kafka bus', () => {
  it('when events wait for a consumer, then they reach its batch handler together, in order, each once', async () => {
    const service = await newService();
    await enqueueUsers(
      service.db,
      Array.from({ length: 20 }, (_, seq) => ({ key: 'user-a', seq })),
    );
    const producer = track(kafkaTransport.createBus(service.prefix));
    startRelay(service, producer, 20);
    await waitFor(
      'outbox published',
      async () => (await count(service.db, 'select count(*) as n from outbox where published_at is null')) === 0,
      30_000,
    );
    const batches: number[][] = [];
    const bus = track(kafkaTransport.createBus(service.prefix));
    const inbox = effectsConsumer(service.db, 'batches');
    await bus.subscribe({
      groupId: 'batches',
      topics: [TOPIC],
      handler: inbox.handler,
      batchHandler: async (messages) => {
        batches.push(messages.map((m) => Number(fromBinary(UserRegisteredSchema, m.value).lastName)));
        await inbox.batchHandler(messages);
      },
    });

    await waitFor('20 effects', async () => (await effectCount(service, 'batches')) >= 20, 45_000);
    expect(batches.flat()).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(Math.max(...batches.map((b) => b.length))).toBeGreaterThan(1);
    expect(await effectCount(service, 'batches')).toBe(20);
  }, 120_000);
});
