// DATABASE_STATEMENT_TIMEOUT_MS on real Postgres: a statement of a service's pool that waits or
// runs longer is cancelled (57014), so a request stuck behind a lock gives its connection back;
// migrations, the retention job and privacy erasures, which may rightly take longer (and would
// only be retried into the dead letters if cut), are not, and leave the bound in place on the
// connection they used.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { outboxSchemaSql, UserDeletedSchema } from '@checkpoint/events';
import { eventMessage, startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  createPool,
  isDatabaseUnavailable,
  isStatementCancelled,
  privacySubscription,
  RetentionJob,
  runMigrations,
  type PrivacyParticipant,
} from '../src/index.ts';

let postgres: PostgresHandle;
let pool: pg.Pool;
let admin: pg.Pool;

beforeAll(async () => {
  postgres = await startPostgres();
  admin = createPool({ url: postgres.url, schema: 'public', max: 2 });
  await admin.query('create schema if not exists timeout_test');
  // One connection: every statement below runs on the connection the previous one left.
  pool = createPool({ url: postgres.url, schema: 'timeout_test', max: 1, statementTimeoutMs: 300 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await admin?.end();
  await postgres?.stop();
});

describe('statement timeout', () => {
  it('when a statement waits on a lock longer than the bound, then it is cancelled (not an outage) and the connection serves again', async () => {
    await pool.query('create table if not exists locked (id int primary key)');
    const holder = await admin.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table timeout_test.locked in access exclusive mode');
      const started = Date.now();
      const error = await pool.query('select count(*) from locked').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toMatchObject({ code: '57014' });
      expect(isStatementCancelled(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    const { rows } = await pool.query<{ n: string }>('select count(*) as n from locked');
    expect(rows[0]!.n).toBe('0');
  });

  it('when a migration takes longer than the bound, then it is applied, and the bound holds again afterwards', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'timeout-migrations-'));
    try {
      await writeFile(path.join(dir, '001_slow.sql'), 'select pg_sleep(0.6); create table slow (id int);');
      expect(await runMigrations(pool, { schema: 'timeout_test', dir })).toEqual(['001_slow.sql']);
      const { rows } = await pool.query<{ statement_timeout: string }>('show statement_timeout');
      expect(rows[0]!.statement_timeout).toBe('300ms');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('when the retention job deletes for longer than the bound, then it completes, and the bound holds again afterwards', async () => {
    await pool.query(`
      create table if not exists privacy_retention (tenant_id uuid primary key, retention_days integer not null);
      create table if not exists privacy_jobs (name text primary key, last_run_at timestamptz not null);
      insert into privacy_retention values ('0193a3b0-0000-7000-8000-000000000001', 30) on conflict do nothing;
    `);
    const participant: PrivacyParticipant = {
      service: 'test',
      retention: async (tx) => {
        await tx.$executeRawUnsafe('select pg_sleep(0.6)');
        return 1;
      },
    };
    const job = new RetentionJob(pool, participant, { intervalMs: 86_400_000, logger: createLogger('test', 'silent') });
    expect(await job.runIfDue()).toBe(1);
    const { rows } = await pool.query<{ statement_timeout: string }>('show statement_timeout');
    expect(rows[0]!.statement_timeout).toBe('300ms');
  });

  it('when erasing a student takes longer than the bound, then the erasure completes instead of being retried into the dead letters', async () => {
    const schema = 'timeout_privacy';
    await admin.query(`create schema if not exists ${schema}`);
    const privacyPool = createPool({ url: postgres.url, schema, max: 1, statementTimeoutMs: 300 });
    try {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'timeout-privacy-'));
      await runMigrations(privacyPool, { schema, dir, shared: [{ version: '000_events', sql: outboxSchemaSql }] });
      await rm(dir, { recursive: true, force: true });
      const student = randomUUID();
      const tenant = randomUUID();
      await privacyPool.query('create table answers (id serial primary key, student_id uuid not null)');
      await privacyPool.query('insert into answers (student_id) values ($1), ($2)', [student, randomUUID()]);
      const subscription = privacySubscription(privacyPool, {
        service: 'test',
        // A scan of a large district's tables, standing in.
        beforeEraseUser: async (tx) => void (await tx.$executeRawUnsafe('select pg_sleep(0.6)')),
        retention: async () => 0,
      });
      await subscription.handler!(
        eventMessage(UserDeletedSchema, { userId: student, tenantId: tenant }, { key: student, tenantId: tenant }),
      );
      const { rows } = await privacyPool.query<{ n: number }>(
        'select count(*)::int as n from answers where student_id = $1',
        [student],
      );
      expect(rows[0]!.n).toBe(0);
      const timeout = await privacyPool.query<{ statement_timeout: string }>('show statement_timeout');
      expect(timeout.rows[0]!.statement_timeout).toBe('300ms');
    } finally {
      await privacyPool.end();
    }
  });
});
