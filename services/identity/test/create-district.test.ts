// `npm run create-district -- …` against a real Postgres: the tenant and its first admin in one
// transaction with UserRegistered, the admin's way in without a password (a reset link), and every
// refusal leaving the database as it was. The operator's runs are child processes (exit code,
// output); the many refusals call the same command function in-process, to stay quick.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary, UserRegisteredSchema } from '@checkpoint/events';
import { runCreateDistrict } from '../src/cli/create-district.command.ts';
import { Browser, queuedLinkToken, signUpBody, signUpByLink, startHarness, type Harness } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

function createDistrictProcess(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'services/identity/src/cli/create-district.ts', ...args],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: h.serviceUrl, ...env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The command in this process, its output captured. */
async function createDistrict(args: string[], env: Record<string, string | undefined> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCreateDistrict(
    args,
    { DATABASE_URL: h.serviceUrl, ...env },
    { log: (l) => stdout.push(l), error: (l) => stderr.push(l) },
  );
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

function args(o: { name?: string; domains?: string[]; kind?: string; admin?: string; first?: string; last?: string }) {
  return [
    ...(o.name === undefined ? [] : ['--name', o.name]),
    ...(o.domains ?? []).flatMap((d) => ['--domain', d]),
    ...(o.kind === undefined ? [] : ['--kind', o.kind]),
    ...(o.admin === undefined ? [] : ['--admin', o.admin]),
    '--first-name',
    o.first ?? 'Ada',
    '--last-name',
    o.last ?? 'Lovelace',
  ];
}

/** Row counts of every table a creation could write. */
async function snapshot() {
  const { rows } = await h.db.query(`
    select (select count(*)::int from tenants) as tenants, (select count(*)::int from users) as users,
           (select count(*)::int from credentials) as credentials, (select count(*)::int from outbox) as outbox,
           (select count(*)::int from email_tokens) as tokens, (select count(*)::int from outgoing_mail) as mail`);
  return rows[0] as Record<string, number>;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(async () => {
  await h?.stop();
}, 60_000);

describe('create-district', { timeout: 120_000 }, () => {
  it('when the operator creates a district, then the tenant, its verified admin and UserRegistered exist, and the admin sets a password by reset link and signs in as admin', async () => {
    const run = await createDistrictProcess(
      args({
        name: '  Springfield Schools ',
        domains: ['Springfield.K12.us'],
        admin: 'Admin@Springfield.k12.us',
        first: 'Ada',
        last: 'Lovelace',
      }),
      { PUBLIC_URL: 'https://checkpoint.example.org/' },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Created the district "Springfield Schools"');
    expect(run.stdout).toContain('Ada Lovelace <admin@springfield.k12.us>, email verified, no password yet');
    expect(run.stdout).toContain('"Forgot password?" on https://checkpoint.example.org/auth');
    expect(run.stdout).toContain('npm run sso -- set --district springfield.k12.us');

    const tenant = await h.db.query(
      `select id, name, kind, email_domains from tenants where name = 'Springfield Schools'`,
    );
    expect(tenant.rows).toEqual([
      { id: expect.any(String), name: 'Springfield Schools', kind: 'district', email_domains: ['springfield.k12.us'] },
    ]);
    const tenantId = tenant.rows[0].id as string;
    const user = await h.db.query(
      `select u.id, u.role, u.tenant_id, u.email_verified_at, c.user_id as credential
         from users u left join credentials c on c.user_id = u.id where u.email = 'admin@springfield.k12.us'`,
    );
    expect(user.rows).toHaveLength(1);
    expect(user.rows[0]).toMatchObject({ role: 'admin', tenant_id: tenantId, credential: null });
    expect(user.rows[0].email_verified_at).toBeInstanceOf(Date);
    const adminId = user.rows[0].id as string;
    const events = await h.db.query<{ payload: Buffer }>(
      `select payload from outbox where type = 'checkpoint.identity.v1.UserRegistered' and key = $1`,
      [adminId],
    );
    expect(events.rows.map((r) => fromBinary(UserRegisteredSchema, r.payload))).toEqual([
      expect.objectContaining({
        userId: adminId,
        tenantId,
        tenantKind: 'district',
        role: 'admin',
        email: 'admin@springfield.k12.us',
        firstName: 'Ada',
        lastName: 'Lovelace',
      }),
    ]);

    // No password yet: a sign-in attempt fails; "Forgot password?" mails a reset link that sets one.
    const browser = new Browser(h.identity.url);
    const before = await browser.request('POST', '/api/auth/simple-login', {
      email: 'admin@springfield.k12.us',
      password: 'whatever it is',
    });
    expect(before.status).toBe(401);
    const forgot = await browser.request('POST', '/api/auth/password/forgot', { email: 'admin@springfield.k12.us' });
    expect(forgot.status).toBe(202);
    const token = await queuedLinkToken(h, 'admin@springfield.k12.us', '/reset-password');
    const reset = await browser.request('POST', '/api/auth/password/reset', { token, password: 'a district secret' });
    expect(reset).toMatchObject({ status: 200, body: { email: 'admin@springfield.k12.us' } });
    const signIn = await browser.request('POST', '/api/auth/simple-login', {
      email: 'admin@springfield.k12.us',
      password: 'a district secret',
    });
    expect(signIn).toMatchObject({
      status: 200,
      body: { user: { id: adminId, role: 'admin', accountType: 'district', tenantId, emailVerified: true } },
    });

    // The domain is the district's now: a teacher signing up there is mailed a link into it.
    const teacher = await browser.request(
      'POST',
      '/api/auth/simple-signup',
      signUpBody({ email: `mia.${Date.now()}@springfield.k12.us` }),
    );
    expect(teacher.status).toBe(202);
  });

  it('when a school is created with two domains (repeated and comma-separated), then it owns all of them', async () => {
    const run = await createDistrict([
      ...args({ name: 'Shelbyville High', domains: ['shelbyville.edu,staff.shelbyville.edu'], kind: 'school' }),
      '--domain',
      'students.shelbyville.edu',
      '--admin',
      'principal@staff.shelbyville.edu',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Created the school "Shelbyville High"');
    expect(run.stdout).toContain('"Forgot password?" on the sign-in page');
    const { rows } = await h.db.query(
      `select t.kind, t.email_domains, u.role from tenants t join users u on u.tenant_id = t.id where t.name = 'Shelbyville High'`,
    );
    expect(rows).toEqual([
      {
        kind: 'school',
        email_domains: ['shelbyville.edu', 'staff.shelbyville.edu', 'students.shelbyville.edu'],
        role: 'admin',
      },
    ]);
  });

  it('when the input is refused, then it exits 1 with a message naming the option, and nothing changes', async () => {
    // An individual account at a domain no district owns yet.
    const solo = await signUpByLink(h, { email: `ogden.${Date.now()}@ogdenville.org` });
    const ok = { name: 'Ogdenville', domains: ['ogdenville.org'], admin: 'admin@ogdenville.org' };
    const cases: [string[], string][] = [
      [args({ ...ok, name: undefined }), 'create-district: --name required'],
      [args({ ...ok, name: '   ' }), 'create-district: --name: is required'],
      [args({ ...ok, name: 'x'.repeat(121) }), '--name: must be at most 120 characters'],
      [args({ ...ok, name: 'Two\nlines' }), '--name: must not contain control characters'],
      [args({ ...ok, domains: [] }), 'create-district: --domain required'],
      [args({ ...ok, domains: ['ogdenville'] }), '--domain: "ogdenville" is not a host name with a dot'],
      [args({ ...ok, domains: ['ogden_ville.org'] }), 'is not a host name with a dot'],
      [args({ ...ok, domains: ['10.0.0.1'] }), 'is not a host name with a dot'],
      [args({ ...ok, domains: ['ogden-.org'] }), 'is not a host name with a dot'],
      [args({ ...ok, domains: ['@ogdenville.org'] }), '--domain: "@ogdenville.org" is not a domain: give it without @'],
      [
        args({ ...ok, domains: ['ogdenville.org', 'GMail.com'], admin: 'admin@ogdenville.org' }),
        '--domain: "GMail.com" is a public mail provider',
      ],
      [
        args({ ...ok, domains: ['ogdenville.org', 'springfield.k12.us'] }),
        '--domain: already a domain of a district or school: springfield.k12.us (owned by Springfield Schools)',
      ],
      [
        args({ ...ok, admin: 'admin@elsewhere.org' }),
        "--admin: admin@elsewhere.org is not at one of the district's domains (ogdenville.org)",
      ],
      [args({ ...ok, admin: 'admin@mail.ogdenville.org' }), 'is not at one of the district'],
      [args({ ...ok, admin: 'not-an-email' }), '--admin: "not-an-email" is not an email address'],
      [args({ ...ok, admin: ` ${solo.email.toUpperCase()} ` }), `--admin: ${solo.email} already has an account`],
      [args({ ...ok, kind: 'county' }), '--kind: must be district or school (got "county")'],
      [args({ ...ok, first: ' ' }), '--first-name: is required'],
      [args({ ...ok, last: 'y'.repeat(101) }), '--last-name: must be at most 100 characters'],
      [[...args(ok), '--bogus'], "Unknown option '--bogus'"],
      [[...args(ok), 'stray'], 'Unexpected argument'],
    ];
    const before = await snapshot();
    for (const [argv, message] of cases) {
      const run = await createDistrict(argv);
      expect({ argv, code: run.code, stdout: run.stdout }).toEqual({ argv, code: 1, stdout: '' });
      expect(run.stderr, argv.join(' ')).toContain(message);
      expect(await snapshot(), argv.join(' ')).toEqual(before);
    }
    const { rows } = await h.db.query(`select count(*)::int as n from tenants where name = 'Ogdenville'`);
    expect(rows[0].n).toBe(0);

    // The same refusals as the operator sees them: the message, no stack trace.
    const run = await createDistrictProcess(args({ ...ok, domains: ['yahoo.com'], admin: 'a@yahoo.com' }));
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `create-district: --domain: "yahoo.com" is a public mail provider: anyone can have an address there, so it cannot stand for a district. Give the district's own domain.`,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('when two runs claim the same domain at once, then one creates its district and the other is refused with nothing written', async () => {
    const before = await snapshot();
    const runs = await Promise.all(
      ['one', 'two'].map((n) =>
        createDistrict(args({ name: `Capital City ${n}`, domains: ['capital.city'], admin: `${n}@capital.city` })),
      ),
    );
    expect(runs.map((r) => r.code).sort()).toEqual([0, 1]);
    expect(runs.find((r) => r.code === 1)!.stderr).toContain(
      '--domain: already a domain of a district or school: capital.city (owned by Capital City',
    );
    const after = await snapshot();
    expect(after).toMatchObject({ tenants: before.tenants! + 1, users: before.users! + 1, outbox: before.outbox! + 1 });
  });

  it('when no database runs in DATA_DIR and DATABASE_URL is unset, then it says so and exits 1', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'checkpoint-create-district-'));
    try {
      const run = await createDistrict(args({ name: 'X', domains: ['x.org'], admin: 'a@x.org' }), {
        DATABASE_URL: undefined,
        DATA_DIR: dataDir,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('no running Checkpoint database');
      // A typo is refused first, with no database needed.
      const typo = await createDistrict(args({ name: 'X', domains: ['x'], admin: 'a@x' }), {
        DATABASE_URL: undefined,
        DATA_DIR: dataDir,
      });
      expect(typo).toMatchObject({
        code: 1,
        stderr: 'create-district: --domain: "x" is not a host name with a dot (e.g. springfield.k12.us)',
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('when PUBLIC_URL is not a URL, then it names the variable and exits 1', async () => {
    const run = await createDistrict(args({ name: 'X', domains: ['x.org'], admin: 'a@x.org' }), {
      PUBLIC_URL: 'checkpoint.example.org',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PUBLIC_URL');
  });
});
