// A connection lost while its client is checked out but between two queries (a transaction that
// awaits an SMTP server or a Kafka send while Postgres restarts) must not end the process: pg
// emits that error on the client, where nothing else listens. The client's next query fails
// instead, and the pool goes on with new connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import { createPool } from '../src/index.ts';

let postgres: PostgresHandle;

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(async () => {
  await postgres?.stop();
});

describe('createPool', () => {
  it('when the connection of a checked-out, idle client is terminated, then its next query fails, nothing is thrown and the pool serves again', async () => {
    const pool = createPool({ url: postgres.url, schema: 'public', max: 2 });
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      const killer = createPool({ url: postgres.url, schema: 'public', max: 1 });
      await killer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await killer.end();
      // The socket closes a moment later: wait for pg to notice it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(client.query('select 1')).rejects.toThrow();
      client.release(true);
      expect(uncaught).toEqual([]);
      const again = await pool.query<{ one: number }>('select 1 as one');
      expect(again.rows[0]!.one).toBe(1);
    } finally {
      process.off('uncaughtException', onUncaught);
      await pool.end();
    }
  });
});
