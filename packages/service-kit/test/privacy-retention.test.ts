// The retention job of privacy operations (privacy.ts) on real Postgres: it runs once per interval
// however many replicas try at once, deletes only the tenant's activity older than its period, and
// runs again once the interval has passed.
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, deleteOlderThan, RetentionJob, type PrivacyParticipant } from '../src/index.ts';

let postgres: PostgresHandle;
let pool: pg.Pool;
const tenant = '0193a3b0-0000-7000-8000-000000000001';
const otherTenant = '0193a3b0-0000-7000-8000-000000000002';
const DAY = 86_400_000;

beforeAll(async () => {
  postgres = await startPostgres();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('create schema retention_test');
  await admin.end();
  pool = new pg.Pool({ connectionString: postgres.url, options: '-c search_path=retention_test', max: 6 });
  pool.on('error', () => {});
  await pool.query(`
    create table privacy_retention (tenant_id uuid primary key, retention_days integer not null, updated_at timestamptz not null default now());
    create table privacy_jobs (name text primary key, last_run_at timestamptz not null);
    create table results (id serial primary key, tenant_id uuid not null, submitted_at timestamptz not null);
  `);
  await pool.query('insert into privacy_retention (tenant_id, retention_days) values ($1, 30)', [tenant]);
  await pool.query(
    `insert into results (tenant_id, submitted_at) values
       ($1, now() - interval '40 days'), ($1, now() - interval '10 days'), ($2, now() - interval '400 days')`,
    [tenant, otherTenant],
  );
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

describe('retention job', () => {
  it('when three replicas try at once, then one runs, deleting only what is older than the period', async () => {
    let runs = 0;
    const participant: PrivacyParticipant = {
      service: 'test',
      retention: async (tx, tenantId, cutoff) => {
        runs++;
        return deleteOlderThan(tx, 'results', 'submitted_at', tenantId, cutoff);
      },
    };
    const logger = createLogger('test', 'silent');
    const jobs = [1, 2, 3].map(() => new RetentionJob(pool, participant, { intervalMs: DAY, logger }));
    const results = await Promise.all(jobs.map((j) => j.runIfDue()));
    expect(results.filter((r) => r !== undefined)).toEqual([1]);
    expect(runs).toBe(1);
    const left = await pool.query('select tenant_id from results order by id');
    expect(left.rows.map((r) => r.tenant_id)).toEqual([tenant, otherTenant]);

    // Within the interval nobody runs; once it has passed, one does.
    expect(await jobs[0]!.runIfDue()).toBeUndefined();
    const later = new RetentionJob(pool, participant, {
      intervalMs: DAY,
      logger,
      now: () => new Date(Date.now() + DAY + 1000),
    });
    expect(await later.runIfDue()).toBe(0);
    expect(runs).toBe(2);
  });
});
