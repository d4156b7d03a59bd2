// Identity's hourly housekeeping drops what has run out: sign-ins in progress, pending sign-ups,
// mailed links, rate-limit counters and exported data past its download window. Each goes in short
// batches (deleteInBatches), so the SQL of each is checked here against the real tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredRateLimits } from '../src/data-access/rate-limits.ts';
import { emailTokensRepository } from '../src/data-access/email-tokens.repository.ts';
import { oidcRepository } from '../src/data-access/oidc.repository.ts';
import { createPrisma, type Db } from '../src/data-access/prisma.ts';
import { deleteExpiredExports, EXPORT_TTL_DAYS } from '../src/domain/privacy/privacy.use-case.ts';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let prisma: Db;
beforeAll(async () => {
  h = await startHarness();
  prisma = createPrisma(h.db, 'identity');
}, 120_000);
afterAll(async () => {
  await prisma?.$disconnect();
  await h?.stop();
}, 60_000);

const keys = async (sql: string) => (await h.db.query<{ k: string }>(sql)).rows.map((r) => r.k).sort();

describe('identity housekeeping', () => {
  it('when sign-ins in progress and pending sign-ups have expired, then they are deleted and the rest stay', async () => {
    for (const [id, age] of [
      ['flow-old', '-1 minute'],
      ['flow-new', '10 minutes'],
    ])
      await h.db.query(
        `insert into oidc_flows (id, state, nonce, code_verifier, expires_at) values ($1, 's', 'n', 'v', now() + $2::interval)`,
        [id, age],
      );
    for (const [hash, age] of [
      ['pending-old', '-1 minute'],
      ['pending-new', '10 minutes'],
    ])
      await h.db.query(
        `insert into pending_signups (token_hash, issuer, subject, email, first_name, last_name, expires_at)
         values ($1, 'https://idp.test', $1, 'p@example.test', 'P', 'S', now() + $2::interval)`,
        [hash, age],
      );
    await oidcRepository(prisma).deleteExpired();
    expect(await keys('select id k from oidc_flows')).toEqual(['flow-new']);
    expect(await keys('select token_hash k from pending_signups')).toEqual(['pending-new']);
  });

  it('when mailed links expired or were used over a day ago, then they are deleted and the rest stay', async () => {
    for (const [hash, expires, used] of [
      ['expired-long-ago', '-2 days', null],
      ['used-long-ago', '1 day', '-2 days'],
      ['expired-lately', '-1 hour', null],
      ['used-lately', '1 day', '-1 hour'],
      ['open', '1 day', null],
    ])
      await h.db.query(
        `insert into email_tokens (token_hash, purpose, email, expires_at, used_at)
         values ($1, 'verify', 'e@example.test', now() + $2::interval, now() + $3::interval)`,
        [hash, expires, used],
      );
    await expect(emailTokensRepository(prisma).deleteExpired()).resolves.toBe(2);
    expect(await keys('select token_hash k from email_tokens')).toEqual(['expired-lately', 'open', 'used-lately']);
  });

  it('when rate-limit windows ended over an hour ago, then their counters are deleted and the rest stay', async () => {
    const now = Date.now();
    for (const [key, expire] of [
      ['old', now - 2 * 3_600_000],
      ['recent', now - 60_000],
      ['open', now + 60_000],
      ['forever', null],
    ])
      await h.db.query('insert into rate_limits (key, points, expire) values ($1, 1, $2)', [key, expire]);
    await deleteExpiredRateLimits(h.db);
    expect(await keys('select key k from rate_limits')).toEqual(['forever', 'open', 'recent']);
  });

  it('when an export is past its download window, then its data is deleted and the request stays', async () => {
    const requests = { old: '00000000-0000-4000-8000-000000000001', recent: '00000000-0000-4000-8000-000000000002' };
    for (const [id, age] of [
      [requests.old, `${EXPORT_TTL_DAYS + 1} days`],
      [requests.recent, '1 hour'],
    ]) {
      await h.db.query(
        `insert into privacy_requests (id, kind, expected_services, created_at) values ($1, 'export', '{identity}', now() - $2::interval)`,
        [id, age],
      );
      await h.db.query(
        `insert into privacy_request_answers (request_id, service, json) values ($1, 'identity', '{}')`,
        [id],
      );
    }
    await expect(deleteExpiredExports(h.db)).resolves.toBe(1);
    expect(await keys('select request_id::text k from privacy_request_answers')).toEqual([requests.recent]);
    expect(await keys('select id::text k from privacy_requests')).toEqual([requests.old, requests.recent]);
  });

  it('when the migrations have run, then what housekeeping deletes by is indexed (sessions by end, the inbox by age)', async () => {
    const { rows } = await h.db.query<{ indexdef: string }>(
      "select indexdef from pg_indexes where schemaname = 'identity' and indexname in ('sessions_expires_at_idx', 'inbox_processed_at_idx') order by indexname",
    );
    expect(rows.map((r) => r.indexdef.replace(/^.* USING /, ''))).toEqual([
      'btree (processed_at)',
      'btree (expires_at)',
    ]);
  });
});
