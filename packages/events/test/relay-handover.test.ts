// Two outbox relays on one schema (two replicas of a service) against real Postgres: one publishes
// at a time, and when the one holding the schema's lock dies (its connection closes) or freezes
// (its host is cut off: no close ever reaches Postgres), the other takes over, within the publish
// bound in the second case.
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  create,
  enqueueEvent,
  OutboxRelay,
  sqlExecutor,
  UserRegisteredSchema,
  type Bus,
  type BusMessage,
} from '../src/index.ts';
import { createServiceSchema } from './helpers.ts';

const SCHEMA = 'relay_handover';
let postgres: PostgresHandle;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  await createServiceSchema(postgres.url, SCHEMA);
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => {})));
  await postgres?.stop();
});

function pool(name: string): pg.Pool {
  const p = new pg.Pool({
    connectionString: postgres.url,
    options: `-c search_path=${SCHEMA}`,
    application_name: name,
    max: 4,
  });
  p.on('error', () => {});
  p.on('connect', (client) => client.on('error', () => {}));
  pools.push(p);
  return p;
}

/** A bus whose publish never answers until released; `called` resolves at the first publish. */
function hangingBus(): Bus & { called: Promise<void>; release(): void } {
  let called: () => void = () => {};
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    called: new Promise<void>((resolve) => (called = resolve)),
    release: () => release(),
    async publish() {
      called();
      await gate;
    },
    subscribe: async () => {},
    isReady: () => true,
    stop: async () => {},
  };
}

/** A bus that records what it was given. */
function recordingBus(): Bus & { published: BusMessage[] } {
  const published: BusMessage[] = [];
  return {
    published,
    publish: async (messages) => void published.push(...messages),
    subscribe: async () => {},
    isReady: () => true,
    stop: async () => {},
  };
}

async function enqueue(p: pg.Pool): Promise<string> {
  return enqueueEvent(sqlExecutor(p), {
    source: 'test',
    schema: UserRegisteredSchema,
    message: create(UserRegisteredSchema, { userId: crypto.randomUUID() }),
    key: crypto.randomUUID(),
    tenantId: crypto.randomUUID(),
  });
}

async function row(p: pg.Pool, id: string) {
  const { rows } = await p.query<{ published: boolean; attempts: number; last_error: string | null }>(
    'select published_at is not null as published, attempts, last_error from outbox where id = $1',
    [id],
  );
  return rows[0];
}

describe('two outbox relays on one schema', () => {
  it('when the relay holding the lock dies mid-publish, then the other publishes the rows once its connection is gone', async () => {
    const a = pool('relay-a');
    const b = pool('relay-b');
    await b.query('delete from outbox');
    const id = await enqueue(b);
    const stuck = hangingBus();
    const first = new OutboxRelay({ pool: a, bus: stuck, publishTimeoutMs: 60_000 }).publishBatch();
    first.catch(() => {});
    await stuck.called;

    const bus = recordingBus();
    const second = new OutboxRelay({ pool: b, bus });
    // One publisher per schema: while the first holds the lock, the second publishes nothing.
    expect(await second.publishBatch()).toBe(0);
    expect(bus.published).toHaveLength(0);

    // The first replica's process dies: Postgres sees its connections close.
    await b.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'relay-a' and pid <> pg_backend_pid()",
    );
    let published = 0;
    for (let i = 0; i < 50 && published === 0; i++) {
      published = await second.publishBatch();
      if (published === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(published).toBe(1);
    expect(bus.published).toHaveLength(1);
    expect(await row(b, id)).toMatchObject({ published: true, attempts: 1 });
    stuck.release();
    await expect(first).rejects.toThrow();
  });

  it('when the relay holding the lock freezes, then Postgres ends its transaction after the publish bound and the other takes over', async () => {
    const a = pool('relay-frozen');
    const b = pool('relay-b2');
    await b.query('delete from outbox');
    const id = await enqueue(b);
    const stuck = hangingBus();
    const publishTimeoutMs = 1_000;
    const first = new OutboxRelay({ pool: a, bus: stuck, publishTimeoutMs }).publishBatch();
    first.catch(() => {});
    await stuck.called;

    // The whole process stops for longer than the bound (as a host cut off from the network would
    // look to Postgres): nothing it holds can be released from this side.
    const boundMs = publishTimeoutMs + 10_000;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, boundMs + 3_000);

    await expect(first).rejects.toThrow();
    // Postgres ended the frozen relay's transaction: its own bookkeeping never committed.
    expect(await row(b, id)).toEqual({ published: false, attempts: 0, last_error: null });
    const bus = recordingBus();
    expect(await new OutboxRelay({ pool: b, bus }).publishBatch()).toBe(1);
    expect(await row(b, id)).toMatchObject({ published: true, attempts: 1 });
  }, 60_000);
});
