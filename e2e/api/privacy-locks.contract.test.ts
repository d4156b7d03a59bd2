// A district's settings and its deletion, asked for at the same moment, take the tenant's audit
// lock and its row in the same order: neither answers 500 (Postgres found them deadlocked before).
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runMakeAdmin } from '../../services/identity/src/cli/make-admin.command.ts';
import { Client, joinDistrict, startBackend, type Backend } from './helpers.ts';

const tag = Date.now().toString(36);
const DISTRICT = `Locks District ${tag}`;
const DOMAIN = `locks-${tag}.example.org`;
let backend: Backend;
let admin: Client;

beforeAll(async () => {
  backend = await startBackend();
  const db = new pg.Client({ connectionString: backend.postgres.url });
  await db.connect();
  await db.query(
    `insert into identity.tenants (id, name, kind, email_domains) values (gen_random_uuid(), $1, 'district', $2)`,
    [DISTRICT, [DOMAIN]],
  );
  await db.end();
  const teacher = await joinDistrict(backend, 'teacher', { domain: DOMAIN, firstName: 'Lou', lastName: 'Locks' });
  const code = await runMakeAdmin(
    [teacher.user!.email],
    { DATABASE_URL: backend.postgres.url },
    { log: () => {}, error: () => {} },
  );
  if (code !== 0) throw new Error('make-admin failed');
  admin = new Client(backend.url);
  const signIn = await admin.post('/api/auth/simple-login', {
    email: teacher.user!.email,
    password: 'correct horse battery',
  });
  admin.user = signIn.body.user;
});

afterAll(async () => backend?.stop());

it('when settings change while a deletion (a mistyped name) is asked for, then each answers 200 or 400, never 500', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) {
    const answers = await Promise.all([
      admin.put('/api/district/privacy', { retentionDays: 365 + i }),
      admin.post('/api/district/deletion', { confirmName: 'Not the name' }),
      admin.put('/api/district/class-joins', { studentsOwnClassesOnly: i % 2 === 0 }),
      admin.post('/api/district/deletion', { confirmName: 'Nor this one' }),
    ]);
    statuses.push(...answers.map((a) => a.status));
  }
  expect(statuses.filter((s) => s !== 200 && s !== 400)).toEqual([]);
  expect(statuses.filter((s) => s === 200)).toHaveLength(40);
});

it('when invitations are sent while a deletion (a mistyped name) is asked for, then each answers 202 or 400, never 500', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const answers = await Promise.all([
      admin.post('/api/district/invitations', { email: `invitee-${tag}-${i}a@example.org`, role: 'teacher' }),
      admin.post('/api/district/deletion', { confirmName: 'Not the name' }),
      admin.post('/api/district/invitations', { email: `invitee-${tag}-${i}b@example.org`, role: 'teacher' }),
      admin.post('/api/district/deletion', { confirmName: 'Nor this one' }),
    ]);
    statuses.push(...answers.map((a) => a.status));
  }
  expect(statuses.filter((s) => s !== 202 && s !== 400)).toEqual([]);
  expect(statuses.filter((s) => s === 202)).toHaveLength(12);
});
