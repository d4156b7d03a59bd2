// The outbox relay's life cycle against real Postgres: stopping never strands a pooled connection.
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus, OutboxRelay } from '../src/index.ts';
import { createServiceSchema, schemaPool, waitFor } from './helpers.ts';

let postgres: PostgresHandle;

beforeAll(async () => {
  postgres = await startPostgres();
  await createServiceSchema(postgres.url, 'relay_test');
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
});

/** Resolves to 'ended' when the pool ends within `ms`, else 'stuck'. */
async function endWithin(pool: pg.Pool, ms: number): Promise<'ended' | 'stuck'> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), ms)));
  const result = await Promise.race([pool.end().then(() => 'ended' as const), stuck]);
  clearTimeout(timer);
  return result;
}

describe('outbox relay', () => {
  it('when it is stopped while its LISTEN connection is still being set up, then the pool can end', async () => {
    const pool = schemaPool(postgres.url, 'relay_test');
    const relay = new OutboxRelay({ pool, bus: new InProcessBus() });
    // A service starting and stopped at once (as in a test, or a pod killed during start-up).
    const started = relay.start();
    await relay.stop();
    await started;
    expect(pool.totalCount - pool.idleCount).toBe(0);
    expect(await endWithin(pool, 5_000)).toBe('ended');
  });

  it('when it is stopped after running, then its LISTEN connection goes back to the pool', async () => {
    const pool = schemaPool(postgres.url, 'relay_test');
    const relay = new OutboxRelay({ pool, bus: new InProcessBus(), pollIntervalMs: 50 });
    await relay.start();
    expect(pool.totalCount - pool.idleCount).toBeGreaterThanOrEqual(1);
    await relay.stop();
    expect(await endWithin(pool, 5_000)).toBe('ended');
  });

  it("when nothing waits in its outbox (another schema's insert woke it), then it opens no transaction; when a row waits, it publishes it", async () => {
    await createServiceSchema(postgres.url, 'relay_idle');
    const pool = schemaPool(postgres.url, 'relay_idle');
    const statements: string[] = [];
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
        statements.push(String(text));
        return query(...args);
      }) as typeof client.query;
    });
    const relay = new OutboxRelay({ pool, bus: new InProcessBus() });
    try {
      statements.length = 0;
      expect(await relay.publishBatch()).toBe(0);
      expect(statements.filter((t) => t === 'begin')).toEqual([]);
      expect(statements).toHaveLength(1);
      await pool.query(
        `insert into outbox (id, topic, key, type, tenant_id, payload, headers)
         values ('00000000-0000-4000-8000-00000000a001', 'things', 'k', 'test.thing', 't', '\\x00', '{}')`,
      );
      statements.length = 0;
      expect(await relay.publishBatch()).toBe(1);
      expect(statements).toContain('begin');
      const { rows } = await pool.query<{ n: number }>('select count(*)::int n from outbox where published_at is null');
      expect(rows[0]!.n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('when published rows are past the retention, then it deletes them and keeps the newer ones', async () => {
    const pool = schemaPool(postgres.url, 'relay_test');
    const row = (id: number, age: string) =>
      pool.query(
        `insert into outbox (id, topic, key, type, tenant_id, payload, headers, published_at)
         values ($1::uuid, 'things', 'k', 'test.thing', 't', '\\x00', '{}', now() - $2::interval)`,
        [`00000000-0000-4000-8000-${String(id).padStart(12, '0')}`, age],
      );
    for (let i = 1; i <= 30; i++) await row(i, i <= 20 ? '8 days' : '1 hour');
    const relay = new OutboxRelay({ pool, bus: new InProcessBus(), pollIntervalMs: 50 });
    await relay.start();
    try {
      await waitFor('the cleanup', async () => {
        const { rows } = await pool.query<{ n: number }>('select count(*)::int n from outbox');
        return rows[0]!.n === 10;
      });
      const { rows } = await pool.query<{ age: string }>(
        "select distinct (published_at > now() - interval '1 day')::text age from outbox",
      );
      expect(rows).toEqual([{ age: 'true' }]);
    } finally {
      await relay.stop();
      await pool.end();
    }
  });

  it('when inbox entries are past the inbox retention, then it deletes them; without one it keeps every entry', async () => {
    const pool = schemaPool(postgres.url, 'relay_test');
    const entries = async () =>
      (await pool.query<{ event_id: string }>('select event_id from inbox order by event_id')).rows.map(
        (r) => r.event_id,
      );
    await pool.query('truncate inbox');
    await pool.query(
      `insert into inbox (consumer_group, event_id, processed_at)
       values ('g', 'old', now() - interval '31 days'), ('g', 'recent', now() - interval '1 day')`,
    );
    // Without an inbox retention (the relay's default) nothing goes.
    const keeping = new OutboxRelay({ pool, bus: new InProcessBus(), pollIntervalMs: 50 });
    await keeping.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await keeping.stop();
    expect(await entries()).toEqual(['old', 'recent']);

    const relay = new OutboxRelay({
      pool,
      bus: new InProcessBus(),
      pollIntervalMs: 50,
      inboxRetentionMs: 30 * 86_400_000,
    });
    await relay.start();
    try {
      await waitFor('the inbox cleanup', async () => (await entries()).length === 1);
      expect(await entries()).toEqual(['recent']);
    } finally {
      await relay.stop();
      await pool.end();
    }
  });
});
