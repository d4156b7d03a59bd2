// A student's erasure and export cover identity's mail traces (docs/adr/009), on real Postgres:
// the mail queued to their addresses, the one-time links issued for them (a used sign-up link
// keeps their name and password hash; an email change keeps the pending address) and the
// rate-limit counters keyed by their address or id go at once; their export describes the mails
// and links without the secrets.
import { createHash, randomUUID } from 'node:crypto';
import { migrateService, provisionServiceDatabase } from '@checkpoint/service-kit';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyUseCases, type PrivacyActor } from '../src/domain/privacy/privacy.use-case.ts';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

let postgres: PostgresHandle;
let pool: pg.Pool;

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await provisionServiceDatabase(postgres.url, 'identity');
  pool = new pg.Pool({ connectionString: url, options: '-c search_path=identity', max: 4 });
  pool.on('error', () => {});
  await migrateService({ migrationsDir: MIGRATIONS }, pool, 'identity');
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A district with an admin and a student who signed up by link, changes address and was rate limited. */
async function studentWithTraces() {
  const tenantId = randomUUID();
  await pool.query(`insert into tenants (id, name, kind) values ($1, $2, 'district')`, [tenantId, `D ${tenantId}`]);
  const admin: PrivacyActor = { userId: randomUUID(), role: 'admin', tenantId };
  await pool.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Ad', 'Min', 'admin')`,
    [admin.userId, tenantId, `admin-${tenantId}@erasure.example.org`],
  );
  const student = randomUUID();
  const email = `zoe-${student.slice(0, 8)}@erasure.example.org`;
  const pending = `zoe.new-${student.slice(0, 8)}@erasure.example.org`;
  await pool.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Zoë', 'Quill', 'student')`,
    [student, tenantId, email],
  );
  const link = `http://127.0.0.1/finish-sign-up?token=${randomUUID()}`;
  await pool.query(
    `insert into outgoing_mail (id, "to", subject, text) values
       ($1, $2, 'Finish creating your account', $3), ($4, $5, 'Confirm your new address', $6)`,
    [randomUUID(), email, `Hi Zoë,\n\nOpen ${link} to finish.`, randomUUID(), pending, `Hi Zoë, open ${link}x`],
  );
  await pool.query(
    `insert into email_tokens (token_hash, purpose, user_id, tenant_id, email, payload, expires_at, used_at) values
       ($1, 'signup', null, $2, $3, $4, now() + interval '1 day', now()),
       ($5, 'email_change', $6, $2, $7, '{}', now() + interval '1 day', null)`,
    [
      sha256(`signup-${student}`),
      tenantId,
      email,
      JSON.stringify({ firstName: 'Zoë', lastName: 'Quill', role: 'student', passwordHash: '$argon2id$v=19$secret' }),
      sha256(`change-${student}`),
      student,
      pending,
    ],
  );
  const keys = [
    `signin-account:${email}`,
    `signin-at:127.0.0.1 ${email}`,
    `mail:${pending}`,
    `password:${student}`,
    `mail:sha256:${sha256(email)}`,
  ];
  const other = `signin-account:someone-${student.slice(0, 8)}@erasure.example.org`;
  for (const key of [...keys, other])
    await pool.query(`insert into rate_limits (key, points, expire) values ($1, 3, $2)`, [key, Date.now() + 60_000]);
  return { admin, student, email, pending, keys, other };
}

async function traces(s: { student: string; email: string; pending: string; keys: string[] }) {
  const { rows } = await pool.query<{ mail: number; tokens: number; limits: number }>(
    `select (select count(*)::int from outgoing_mail where "to" = any($1)) as mail,
            (select count(*)::int from email_tokens where email = any($1) or user_id = $2) as tokens,
            (select count(*)::int from rate_limits where key = any($3)) as limits`,
    [[s.email, s.pending], s.student, s.keys],
  );
  return rows[0]!;
}

describe('erasure and export of identity’s mail traces', () => {
  it('when a student with pending mail, a used sign-up link and rate-limit rows is exported, then the export describes the mails, links and counters without secrets', async () => {
    const s = await studentWithTraces();
    const uc = privacyUseCases({ pool, source: 'identity' });
    const started = await uc.requestExport(s.admin, s.student);
    const { rows } = await pool.query<{ json: string }>(
      `select json from privacy_request_answers where request_id = $1 and service = 'identity'`,
      [started.requestId],
    );
    const json = rows[0]!.json;
    const section = JSON.parse(json) as { tables: Record<string, Record<string, unknown>[]> };
    expect(section.tables.outgoing_mail?.map((m) => m.to).sort()).toEqual([s.email, s.pending].sort());
    expect(section.tables.outgoing_mail?.[0]?.text).toContain('[link removed]');
    expect(section.tables.email_links).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          purpose: 'signup',
          email: s.email,
          details: { first_name: 'Zoë', last_name: 'Quill', role: 'student' },
        }),
        expect.objectContaining({ purpose: 'email_change', email: s.pending }),
      ]),
    );
    // Every counter that names the student (by address, id or hashed address), and no other.
    expect(section.tables.rate_limits?.map((r) => r.key).sort()).toEqual([...s.keys].sort());
    expect(section.tables.rate_limits?.[0]).toMatchObject({ points: 3, expires_at: expect.any(String) });
    expect(json).not.toContain('token=');
    expect(json).not.toContain('argon2id');
    expect(json).not.toContain(sha256(`signup-${s.student}`));
  });

  it('when a student with pending mail, a used sign-up link and rate-limit rows is deleted, then none of them remain and the count says so', async () => {
    const s = await studentWithTraces();
    expect(await traces(s)).toEqual({ mail: 2, tokens: 2, limits: 5 });
    const uc = privacyUseCases({ pool, source: 'identity' });
    const started = await uc.deleteStudent(s.admin, s.student);
    expect(await traces(s)).toEqual({ mail: 0, tokens: 0, limits: 0 });
    const { rows } = await pool.query<{ rows: number }>(
      `select rows::int from privacy_request_answers where request_id = $1 and service = 'identity'`,
      [started.requestId],
    );
    // The user row, 2 mails, 2 links, 5 counters at least.
    expect(rows[0]!.rows).toBeGreaterThanOrEqual(10);
    // Someone else's counter stays.
    const other = await pool.query('select 1 from rate_limits where key = $1', [s.other]);
    expect(other.rowCount).toBe(1);
  });

  it('when a district is deleted, then its students’ mail, links and counters go with it', async () => {
    const s = await studentWithTraces();
    const uc = privacyUseCases({ pool, source: 'identity' });
    await uc.deleteTenant(s.admin.tenantId, `D ${s.admin.tenantId}`);
    expect(await traces(s)).toEqual({ mail: 0, tokens: 0, limits: 0 });
  });
});
