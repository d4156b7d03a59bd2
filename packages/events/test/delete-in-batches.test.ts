// Housekeeping deletes (expired sessions, published outbox rows) go in short batches: a backlog of
// any size is worked through under the statement timeout, and two replicas at it at once skip
// each other's rows instead of waiting on them.
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteInBatches, sqlExecutor } from '../src/index.ts';
import { createServiceSchema, schemaPool } from './helpers.ts';

let postgres: PostgresHandle;
let pool: pg.Pool;

beforeAll(async () => {
  postgres = await startPostgres();
  await createServiceSchema(postgres.url, 'delete_batches_test');
  pool = schemaPool(postgres.url, 'delete_batches_test');
  await pool.query('create table items (id int primary key, expires_at timestamptz not null)');
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

async function fill(count: number, expiredEvery: number): Promise<void> {
  await pool.query('truncate items');
  await pool.query(
    `insert into items select i, case when i % $2 = 0 then now() - interval '2 days' else now() + interval '2 days' end
       from generate_series(1, $1) i`,
    [count, expiredEvery],
  );
}

const expired = 'expires_at < $1';

describe('deleteInBatches', () => {
  it('when the backlog spans many batches, then every matching row goes, nothing else, and the count is returned', async () => {
    await fill(10_000, 3); // 3,333 expired
    const deleted = await deleteInBatches(sqlExecutor(pool), 'items', expired, [new Date()], { batchSize: 500 });
    expect(deleted).toBe(3333);
    const left = await pool.query<{ total: string; expired: string }>(
      'select count(*) total, count(*) filter (where expires_at < now()) expired from items',
    );
    expect(left.rows[0]).toEqual({ total: '6667', expired: '0' });
  });

  it('when the batch size divides the backlog exactly, then the last, empty batch ends it', async () => {
    await fill(1_000, 2); // 500 expired
    await expect(deleteInBatches(sqlExecutor(pool), 'items', expired, [new Date()], { batchSize: 100 })).resolves.toBe(
      500,
    );
    await expect(deleteInBatches(sqlExecutor(pool), 'items', expired, [new Date()], { batchSize: 100 })).resolves.toBe(
      0,
    );
  });

  it('when another transaction holds some of the rows, then they are skipped without waiting and go in a later run', async () => {
    await fill(1_000, 2);
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from items where id <= 100 and expires_at < now() for update');
      await expect(
        deleteInBatches(sqlExecutor(pool), 'items', expired, [new Date()], { batchSize: 100 }),
      ).resolves.toBe(450);
      await holder.query('commit');
    } finally {
      holder.release();
    }
    await expect(deleteInBatches(sqlExecutor(pool), 'items', expired, [new Date()], { batchSize: 100 })).resolves.toBe(
      50,
    );
  });

  it('when it runs, then each statement deletes at most one batch; when told to stop, it ends after the batch in flight', async () => {
    await fill(1_000, 2); // 500 expired
    const statements: number[] = [];
    const counting = sqlExecutor({
      query: async (text: string, values?: unknown[]) => {
        const result = await pool.query(text, values);
        statements.push(result.rowCount ?? 0);
        return result;
      },
    });
    await expect(deleteInBatches(counting, 'items', expired, [new Date()], { batchSize: 120 })).resolves.toBe(500);
    expect(statements).toEqual([120, 120, 120, 120, 20]);

    await fill(1_000, 2);
    statements.length = 0;
    let batches = 0;
    const running = () => batches++ < 2;
    await expect(deleteInBatches(counting, 'items', expired, [new Date()], { batchSize: 100, running })).resolves.toBe(
      200,
    );
    expect(statements).toEqual([100, 100]);
  });
});
