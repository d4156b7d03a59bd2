// Test helpers: a pg-backed stand-in for a Prisma client, per-test schemas, bounded waits.
import { Kafka, logLevel, type Admin } from 'kafkajs';
import pg from 'pg';
import {
  create,
  enqueueEvent,
  outboxSchemaSql,
  sqlExecutor,
  UserRegisteredSchema,
  type SqlExecutor,
  type TransactionRunner,
} from '../src/index.ts';

export type PgRunner = TransactionRunner<SqlExecutor> & SqlExecutor;

/** Shaped like a Prisma client: raw queries plus interactive transactions. */
export function pgRunner(pool: pg.Pool): PgRunner {
  return {
    ...sqlExecutor(pool),
    async $transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(sqlExecutor(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** A pool whose connections use `schema` as search_path, like a service's. */
export function schemaPool(url: string, schema: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 10 });
  // Postgres stopping at the end of a file must not surface as an unhandled error (57P01).
  pool.on('error', () => {});
  return pool;
}

/** Creates a fresh schema with the outbox/inbox tables and an `effects` table for assertions. */
export async function createServiceSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema ${schema}`);
    await client.query(`set search_path = ${schema}`);
    await client.query(outboxSchemaSql);
    await client.query(outboxSchemaSql); // idempotent
    await client.query(
      'create table effects (id bigserial primary key, group_id text not null, key text not null, seq int not null, event_id text not null)',
    );
  } finally {
    await client.end();
  }
}

/** Enqueues one UserRegistered per item, in its own transaction; `seq` travels in last_name. */
export async function enqueueUsers(db: PgRunner, items: { key: string; seq: number; email?: string }[]): Promise<void> {
  for (const item of items) {
    await db.$transaction((tx) =>
      enqueueEvent(tx, {
        source: 'identity',
        schema: UserRegisteredSchema,
        key: item.key,
        tenantId: 'tenant-1',
        message: create(UserRegisteredSchema, {
          userId: item.key,
          tenantId: 'tenant-1',
          email: item.email ?? `${item.key}@example.test`,
          firstName: 'Test',
          lastName: String(item.seq),
          role: 'student',
        }),
      }),
    );
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export async function count(db: SqlExecutor, sql: string, ...values: unknown[]): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ n: string }[]>(sql, ...values);
  return Number(rows[0]?.n ?? 0);
}

/** A connected kafkajs admin client, for a test to set topics up as an operator would. */
export async function kafkaAdmin(brokers: string, clientId: string): Promise<Admin> {
  const admin = new Kafka({ clientId, brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  return admin;
}
