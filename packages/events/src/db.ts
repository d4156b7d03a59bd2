// The database surface the outbox and inbox need: satisfied by a Prisma 7 client, its interactive
// transaction client, or anything shaped like them. Queries use unqualified table names because
// each service connects with search_path set to its own schema.

export interface SqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** The executor over a node-postgres client or pool (`$1`-style parameters, as Prisma's raw calls). */
export function sqlExecutor(client: {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}): SqlExecutor {
  return {
    async $executeRawUnsafe(query, ...values) {
      return (await client.query(query, values)).rowCount ?? 0;
    },
    async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
      return (await client.query(query, values)).rows as T;
    },
  };
}

/**
 * For the inbox's retention, which deletes by processed_at (`OutboxRelay`'s `inboxRetentionMs`),
 * on a schema made before outboxSchemaSql had the index (on a new one it exists: nothing to do). A
 * migration outside a transaction (service-kit's runMigrations): the inbox of a running district is
 * large, and its consumers go on writing while the index builds.
 */
export const inboxRetentionIndexSql = `-- checkpoint:no-transaction
create index concurrently if not exists inbox_processed_at_idx on inbox (processed_at);
`;

/** Rows `deleteInBatches` deletes with one statement. */
export const DELETE_BATCH_SIZE = 5000;

/**
 * Deletes the rows of `table` that `where` selects (`$1`… taken from `values`), `batchSize` at a
 * time, each batch its own short statement, until none is left; returns how many. Housekeeping
 * over a backlog of any size gets through it: one statement over all of it could outlast the
 * statement timeout, be cancelled at every run and leave the backlog growing. No lock is held for
 * long, and replicas doing the same at once skip the rows the other is deleting instead of waiting.
 * `table` and `where` are the caller's own SQL, never input. `running` returning false stops it
 * after the batch in flight (a service stopping).
 */
export async function deleteInBatches(
  db: SqlExecutor,
  table: string,
  where: string,
  values: unknown[] = [],
  { batchSize = DELETE_BATCH_SIZE, running = () => true }: { batchSize?: number; running?: () => boolean } = {},
): Promise<number> {
  const limit = Math.max(1, Math.floor(batchSize));
  let deleted = 0;
  while (running()) {
    const count = await db.$executeRawUnsafe(
      `delete from ${table} where ctid = any(array(
         select ctid from ${table} where ${where} limit ${limit} for update skip locked))`,
      ...values,
    );
    deleted += count;
    if (count < limit) break;
  }
  return deleted;
}

export interface TransactionRunner<Tx extends SqlExecutor = SqlExecutor> {
  $transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R>;
}

/**
 * Idempotent DDL for the `outbox` and `inbox` tables; each service includes it in its own SQL
 * migrations (PostgreSQL 14+).
 */
export const outboxSchemaSql = `
create table if not exists outbox (
  id uuid primary key,
  topic text not null,
  key text not null,
  type text not null,
  tenant_id text not null,
  payload bytea not null,
  headers jsonb not null,
  -- clock_timestamp, not now(): rows written in one transaction keep their order.
  created_at timestamptz not null default clock_timestamp(),
  published_at timestamptz,
  attempts integer not null default 0,
  last_error text
);

create index if not exists outbox_unpublished_idx on outbox (created_at, id) where published_at is null;

create table if not exists inbox (
  consumer_group text not null,
  event_id text not null,
  processed_at timestamptz not null default now(),
  primary key (consumer_group, event_id)
);
-- The inbox's retention deletes by age. A new schema gets the index here, with its empty table;
-- one made before it gets it from inboxRetentionIndexSql, built concurrently.
create index if not exists inbox_processed_at_idx on inbox (processed_at);

create or replace function outbox_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('outbox', '');
  return null;
end;
$$;

create or replace trigger outbox_notify after insert on outbox
  for each statement execute function outbox_notify();
`;
