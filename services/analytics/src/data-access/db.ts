// The analytics service talks to its schema with node-postgres only: every read is an aggregate
// over large tables (Prisma's query builder cannot say them, and raw SQL through it only adds a
// layer), and every write is a consumer's statement inside the inbox transaction.
import { inTransaction } from '@checkpoint/service-kit';
import { sqlExecutor, type SqlExecutor, type TransactionRunner } from '@checkpoint/events';
import type pg from 'pg';

/** A consumer's transaction: the inbox statement and the handlers' effects run on one connection. */
export type Tx = SqlExecutor;

export function transactions(pool: pg.Pool): TransactionRunner<Tx> {
  return { $transaction: (fn) => inTransaction(pool, (client) => fn(sqlExecutor(client))) };
}

/** Rows of one read query (the pool's connections have search_path = the service schema). */
export async function rows<T>(pool: pg.Pool, text: string, values: unknown[] = []): Promise<T[]> {
  return (await pool.query(text, values)).rows as T[];
}
