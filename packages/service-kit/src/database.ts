// Postgres plumbing shared by services: a pool pinned to the service's own schema, ordered SQL
// migrations under an advisory lock, and role/schema provisioning for local run modes.
import { createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from './logger.ts';

/**
 * For readiness, per pool made by createPool: when Postgres last answered one of its queries (a
 * result, or an error of its own such as a cancelled statement), and how long a saturated pool may
 * go without an answer and still count as serving (a statement may rightly take up to its timeout).
 */
const served = new WeakMap<pg.Pool, { at: number; windowMs: number }>();
/** Without a statement timeout, how long a saturated pool may go without an answer. */
const UNBOUNDED_SERVING_WINDOW_MS = 60_000;
/** A SQLSTATE: the error came from Postgres, which therefore answered. */
const isPostgresError = (err: unknown) =>
  typeof (err as { code?: unknown })?.code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code);

export function createPool(options: {
  url: string;
  schema: string;
  max?: number;
  idleTimeoutMs?: number;
  /**
   * Postgres cancels a statement of this pool's connections after this long (57014, answered 503):
   * a request stuck behind a lock or a runaway query gives its connection back instead of holding
   * it. 0 or unset: no bound.
   */
  statementTimeoutMs?: number;
  applicationName?: string;
}): pg.Pool {
  const settings = [`search_path=${options.schema}`];
  if (options.statementTimeoutMs) settings.push(`statement_timeout=${Math.floor(options.statementTimeoutMs)}`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    options: settings.map((setting) => `-c ${setting}`).join(' '),
    application_name: options.applicationName ?? options.schema,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a checked-out one between two queries (a transaction awaiting an SMTP server or a Kafka
  // send when Postgres restarts): pg emits that on the client, where no one else listens. Its next
  // query fails instead, and whoever holds it releases it as broken.
  pool.on('connect', (client) => client.on('error', () => {}));
  // For readiness: whether the pool is still serving when its connections are all busy.
  const state = {
    at: -Infinity,
    windowMs: options.statementTimeoutMs ? options.statementTimeoutMs + 10_000 : UNBOUNDED_SERVING_WINDOW_MS,
  };
  served.set(pool, state);
  pool.on('release', (err) => {
    if (!err || isPostgresError(err)) state.at = Date.now();
  });
  return pool;
}

/**
 * Lifts the pool's statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS) for the rest of the current
 * transaction: for work that may rightly run longer than a request, whose cancellation would only
 * be retried until it is dead-lettered (privacy erasure and export scan every table; the
 * retention job's backlog; an audit entry waiting for an erasure's lock).
 */
export const LIFT_STATEMENT_TIMEOUT = 'set local statement_timeout = 0';

/**
 * Runs `fn` in one transaction on one pooled connection: commit when it resolves, rollback when it
 * throws (a connection that cannot even roll back is discarded, not returned to the pool).
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    client.release();
    return result;
  } catch (error) {
    const broken = await client.query('rollback').then(
      () => undefined,
      (rollbackError: unknown) => (rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))),
    );
    client.release(broken);
    throw error;
  }
}

const MIGRATION_LOCK_POLL_MS = 250;

/** Marks a migration whose statements run one by one outside a transaction (first line). */
const NO_TRANSACTION = /^--\s*checkpoint:no-transaction\b/;

/**
 * Drops the schema's invalid indexes: what a concurrent build that failed or was cancelled leaves
 * (`if not exists` would take it for done). None is being built meanwhile: builds run in
 * migrations, under the lock this runner holds.
 */
async function dropInvalidIndexes(client: pg.PoolClient, schema: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `select c.relname as name from pg_index i
       join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and not i.indisvalid`,
    [schema],
  );
  for (const { name } of rows) await client.query(`drop index concurrently if exists ${ident(schema)}.${ident(name)}`);
}

/** The statements of a no-transaction migration: split where a line ends with `;` (plain DDL, no function bodies). */
function statementsOf(sql: string): string[] {
  return sql.split(/;[ \t]*(?:\r?\n|$)/).filter((part) => part.replace(/--[^\n]*/g, '').trim() !== '');
}

/** A migration a package defines (its version is recorded in schema_migrations like a file's name). */
export interface SharedMigration {
  version: string;
  sql: string;
}

/**
 * Applies the shared migrations, then migrations/*.sql in name order, each once, in its own
 * transaction; one whose first line is `-- checkpoint:no-transaction` runs statement by statement.
 */
export async function runMigrations(
  pool: pg.Pool,
  options: {
    schema: string;
    dir: string;
    logger?: Logger;
    /** Migrations every service shares (from packages), applied before the service's own. */
    shared?: SharedMigration[];
    /**
     * Migrations from packages applied after the service's own: idempotent DDL (`if not exists`)
     * of a table that some services' own earlier migrations already created in their own words.
     */
    sharedAfter?: SharedMigration[];
  },
): Promise<string[]> {
  const own = (await readdir(options.dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations = [
    ...(options.shared ?? []),
    ...(await Promise.all(
      own.map(async (file) => ({ version: file, sql: await readFile(path.join(options.dir, file), 'utf8') })),
    )),
    ...(options.sharedAfter ?? []),
  ];
  const lockKey = `migrations:${options.schema}`;
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    // Not bound by the pool's statement_timeout: waiting for another replica's migrations and a
    // migration's own DDL may take longer than a request may. Reset before the client goes back.
    await client.query('set statement_timeout = 0');
    // A concurrent index build whose migrating process died is cancelled within seconds rather
    // than going on (holding the migration lock) until it finishes.
    await client.query("set client_connection_check_interval = '5s'");
    // Asked again every 250 ms rather than waited for: a statement waiting for the lock holds a
    // snapshot, which the holder's CREATE INDEX CONCURRENTLY waits to end (a deadlock).
    const locked = async () =>
      (await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [lockKey]))
        .rows[0]?.locked;
    while (!(await locked())) await sleep(MIGRATION_LOCK_POLL_MS);
    // In a cluster the schema is provisioned for the service's role, which may lack CREATE on the
    // database: only create it when missing.
    const schemaExists = await client.query('select 1 from pg_namespace where nspname = $1', [options.schema]);
    if (schemaExists.rowCount === 0) await client.query(`create schema ${ident(options.schema)}`);
    await client.query(
      `create table if not exists ${ident(options.schema)}.schema_migrations (version text primary key, applied_at timestamptz not null default now())`,
    );
    const done = new Set(
      (
        await client.query<{ version: string }>(`select version from ${ident(options.schema)}.schema_migrations`)
      ).rows.map((r) => r.version),
    );
    for (const { version: file, sql } of migrations) {
      if (done.has(file)) continue;
      if (NO_TRANSACTION.test(sql)) {
        // CREATE INDEX CONCURRENTLY and the like (a large table keeps taking writes meanwhile): each
        // statement on its own. Written so that it can run again after failing part-way (`if not
        // exists`); what a failed concurrent build left behind is dropped first.
        try {
          await client.query(`set search_path to ${ident(options.schema)}`);
          await dropInvalidIndexes(client, options.schema);
          for (const statement of statementsOf(sql)) await client.query(statement);
          await client.query(`insert into ${ident(options.schema)}.schema_migrations(version) values ($1)`, [file]);
        } catch (err) {
          throw new Error(`Migration ${file} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(file);
        options.logger?.info({ migration: file }, 'migration applied');
        continue;
      }
      await client.query('begin');
      try {
        await client.query(`set local search_path to ${ident(options.schema)}`);
        await client.query(sql);
        await client.query(`insert into ${ident(options.schema)}.schema_migrations(version) values ($1)`, [file]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw new Error(`Migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(file);
      options.logger?.info({ migration: file }, 'migration applied');
    }
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => {});
    const reset = await client
      .query('reset statement_timeout; reset search_path; reset client_connection_check_interval')
      .then(
        () => undefined,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
    client.release(reset);
  }
  return applied;
}

/**
 * Creates (once) a login role and a schema owned by it for one service, and returns the service's
 * own connection URL. Used by the local run modes and tests; in a cluster the database operator
 * provisions roles and each service gets its own DATABASE_URL.
 */
export async function provisionServiceDatabase(adminUrl: string, service: string): Promise<string> {
  const role = `cp_${service}`;
  const admin = new URL(adminUrl);
  // Stable across runs (data in .data/ is kept), and different for every admin password.
  const password = createHmac('sha256', decodeURIComponent(admin.password) || 'checkpoint')
    .update(role)
    .digest('hex');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [`provision:${role}`]);
    const exists = await client.query('select 1 from pg_roles where rolname = $1', [role]);
    const literal = `'${password}'`;
    if (exists.rowCount === 0) await client.query(`create role ${ident(role)} login password ${literal}`);
    else await client.query(`alter role ${ident(role)} login password ${literal}`);
    // Creating a schema for another role takes membership in it: an admin role that may create roles
    // but is not a superuser (a managed Postgres, CloudNativePG's owner) is not a member otherwise
    // (PostgreSQL 16: "must be able to SET ROLE"). For a superuser it changes nothing.
    const member = await client
      .query('select pg_has_role(current_user, $1, $2) as ok', [role, 'set'])
      .catch(() => client.query('select pg_has_role(current_user, $1, $2) as ok', [role, 'member']));
    if (!(member.rows[0] as { ok: boolean }).ok) await client.query(`grant ${ident(role)} to current_user`);
    await client.query(`create schema if not exists ${ident(service)} authorization ${ident(role)}`);
    await client.query(`grant connect on database ${ident(admin.pathname.slice(1) || 'postgres')} to ${ident(role)}`);
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [`provision:${role}`]).catch(() => {});
    await client.end();
  }
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}

/** Quotes a SQL identifier (only lower-case identifiers are used here, but quote anyway). */
export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}

/**
 * Readiness of a service: Postgres answers `select 1` through the pool within `timeoutMs`. A pool
 * that is merely saturated (every connection busy, queries queued) is serving, slowly: ready, as
 * long as Postgres still answers its queries (one within `servingWindowMs`: by default the pool's
 * statement timeout and 10 s, or 60 s without one). A pool whose connections hang (a network
 * partition, a host that accepts connections and never answers) is also full with queries queued,
 * but nothing is answered there: not ready.
 */
export async function databaseReachable(
  pool: pg.Pool,
  timeoutMs = 2_000,
  servingWindowMs = served.get(pool)?.windowMs ?? 0,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = Symbol('timedOut');
  try {
    const outcome = await Promise.race([
      pool.query('select 1').then(() => true),
      new Promise<typeof timedOut>((resolve) => {
        timer = setTimeout(() => resolve(timedOut), timeoutMs);
      }),
    ]);
    if (outcome !== timedOut) return true;
    const max = pool.options.max ?? 10;
    const saturated = pool.totalCount >= max && pool.idleCount === 0 && pool.waitingCount > 0;
    return saturated && Date.now() - (served.get(pool)?.at ?? -Infinity) <= servingWindowMs;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Socket errors of a database that is down, restarting or unreachable. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
/** SQLSTATEs of a server shutting down, starting or out of connections (class 08: connection exception). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Prisma's codes for an unreachable server, a closed connection and a pool timeout. */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
/** P2028 is any transaction API error; only this one means a busy pool, not a bug. */
const PRISMA_TRANSACTION_NOT_STARTED = /Unable to start a transaction in the given time/;
/** Prisma driver adapters' error kinds for the same (a raw query's P2010 carries them in meta.driverAdapterError). */
const ADAPTER_UNAVAILABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Can't reach database server/i;

type Inspected = { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: unknown };

/** Whether `test` holds for the error or one it wraps (Prisma's adapter wraps the driver's error). */
function inChain(err: unknown, test: (e: Inspected, code: string) => boolean): boolean {
  for (let e = err as Inspected | undefined, depth = 0; e && depth < 6; depth++) {
    if (test(e, typeof e.code === 'string' ? e.code : '')) return true;
    // Prisma's known errors keep the driver adapter's error in meta; others chain with cause.
    const adapterError = (e.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError;
    const next = typeof adapterError === 'object' && adapterError !== null ? adapterError : e.cause;
    e = typeof next === 'object' && next !== null ? (next as Inspected) : undefined;
  }
  return false;
}

/**
 * Whether an error means the database cannot be reached right now (an outage, a restart, an
 * exhausted pool), as opposed to a bug: such a request is answered 503 with Retry-After, and the
 * client's retry (idempotent saves) completes it. Looks through `cause` chains.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return inChain(
    err,
    (e, code) =>
      UNREACHABLE_CODES.has(code) ||
      UNAVAILABLE_SQLSTATES.has(code) ||
      PRISMA_UNAVAILABLE.has(code) ||
      /^08[0-9A-Z]{3}$/.test(code) ||
      (code === 'P2028' && typeof e.message === 'string' && PRISMA_TRANSACTION_NOT_STARTED.test(e.message)) ||
      (typeof e.kind === 'string' && ADAPTER_UNAVAILABLE_KINDS.has(e.kind)) ||
      (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)),
  );
}

/**
 * Whether Postgres cancelled a statement (57014): it ran or waited on a lock longer than
 * DATABASE_STATEMENT_TIMEOUT_MS, or an operator cancelled it. Not an outage: a slow query or a
 * stuck lock, logged as an error; the request answers 503 `timeout`.
 */
export function isStatementCancelled(err: unknown): boolean {
  return inChain(err, (_e, code) => code === '57014');
}
