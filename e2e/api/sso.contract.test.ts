// District SSO through the gateway (docs/security.md "District SSO"): the demo district's admin
// connects a real local OpenID provider (/api/district/sso), a typed district address gets the
// district's button (/api/auth/sso), a member signs in through it (started by the app, and started
// by the provider), and password sign-in turned off refuses the district's passwords with its message.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, startLocalProvider, type LocalProvider } from '../../services/identity/test/local-oidc-provider.ts';
import { Client, startBackend, type Backend } from './helpers.ts';

const DISTRICT = 'demo.checkpoint.school';
const DEMO_PASSWORD = 'demo-password-for-sso';
// The backend's PUBLIC_URL stays the default: the provider sends the browser there, and the test
// follows that path on the backend's own address.
const REDIRECT_URI = 'http://localhost:8080/api/auth/google/callback';

let backend: Backend;
let db: pg.Client;
let provider: LocalProvider;
let admin: Client;

/** Follows the provider's redirects (its cookies kept) until it sends the browser back; then that path on the backend. */
async function signIn(client: Client, startPath: string): Promise<string | null> {
  const start = await client.get(startPath);
  expect(start.status).toBe(302);
  let location = start.headers.get('location')!;
  if (location.startsWith('/')) return location;
  const jar = new Map<string, string>();
  for (let i = 0; i < 10 && !location.startsWith('http://localhost:8080/'); i++) {
    const res = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    if (res.status !== 302 && res.status !== 303)
      throw new Error(`provider answered ${res.status}: ${await res.text()}`);
    location = new URL(res.headers.get('location')!, location).href;
  }
  const back = new URL(location);
  const end = await client.get(back.pathname + back.search);
  return end.headers.get('location') ?? `${end.status} ${JSON.stringify(end.body)}`;
}

beforeAll(async () => {
  backend = await startBackend({ DEMO_SEED: 'true', DEMO_PASSWORD });
  db = new pg.Client({ connectionString: backend.postgres.url });
  await db.connect();
  provider = await startLocalProvider({ redirectUri: REDIRECT_URI, clientId: 'demo-district' });
  admin = new Client(backend.url);
  const login = await admin.post('/api/auth/simple-login', { email: `admin@${DISTRICT}`, password: DEMO_PASSWORD });
  expect(login.status).toBe(200);
}, 180_000);

afterAll(async () => {
  await db?.end();
  await backend?.stop();
  await provider?.stop();
});

describe('district SSO through the gateway', () => {
  it("when the district's admin connects its provider, then the secret is stored sealed and read back only as hasSecret", async () => {
    const saved = await admin.put('/api/district/sso', {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      emailDomains: [DISTRICT],
      displayName: 'Demo District',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(JSON.stringify(saved.body)).not.toContain(provider.clientSecret);
    expect(saved.body.connection).toMatchObject({ kind: 'generic', hasSecret: true, enabled: true });
    const row = await db.query('select client_secret from identity.sso_connections');
    expect(row.rows).toHaveLength(1);
    expect(row.rows[0].client_secret).not.toContain(provider.clientSecret);
    // A teacher of the district may not read it.
    const teacher = new Client(backend.url);
    await teacher.post('/api/auth/simple-login', { email: `teacher@${DISTRICT}`, password: DEMO_PASSWORD });
    expect((await teacher.get('/api/district/sso')).status).toBe(403);
  });

  it('when a district address is typed, then its button is offered, and signing in through it makes a verified district account', async () => {
    const person = account(DISTRICT);
    provider.next = person;
    const lookup = await new Client(backend.url).get(`/api/auth/sso?email=${encodeURIComponent(person.email)}`);
    expect(lookup.body).toEqual({
      provider: { name: 'Demo District', startUrl: `/api/auth/google?login_hint=${encodeURIComponent(person.email)}` },
      passwordSignIn: true,
    });
    const browser = new Client(backend.url);
    expect(await signIn(browser, lookup.body.provider.startUrl)).toBe('/auth?google_signup=true');
    const done = await browser.post('/api/auth/google/complete', { role: 'student' });
    expect(done.body.user).toMatchObject({ email: person.email, accountType: 'district', role: 'student' });
    const verified = await db.query('select email_verified_at from identity.users where email = $1', [person.email]);
    expect(verified.rows[0].email_verified_at).not.toBeNull();
  });

  it('when the provider starts the sign-in for a known member, then they land signed in on the target page', async () => {
    const person = account(DISTRICT);
    provider.next = person;
    const first = new Client(backend.url);
    await signIn(first, `/api/auth/google?login_hint=${encodeURIComponent(person.email)}`);
    await first.post('/api/auth/google/complete', { role: 'teacher' });
    const id = (await admin.get('/api/district/sso')).body.connection.id;
    const browser = new Client(backend.url);
    const target = encodeURIComponent('http://localhost:8080/classes');
    expect(
      await signIn(
        browser,
        `/api/auth/sso/${id}/initiate?iss=${encodeURIComponent(provider.issuer)}&target_link_uri=${target}`,
      ),
    ).toBe('/classes');
    expect((await browser.get('/api/auth/user')).body.email).toBe(person.email);
  });

  it("when the district turns password sign-in off, then its members' passwords are refused with the district's message", async () => {
    const off = await admin.put('/api/district/sso/password-sign-in', { passwordSignIn: false });
    expect(off.status).toBe(200);
    try {
      const refused = await new Client(backend.url).post('/api/auth/simple-login', {
        email: `teacher@${DISTRICT}`,
        password: DEMO_PASSWORD,
      });
      expect(refused).toMatchObject({
        status: 403,
        body: {
          code: 'password_sign_in_disabled',
          message:
            'Demo District signs in with its own provider. Use “Continue with Demo District” on the sign-in page.',
        },
      });
      expect((await admin.del('/api/district/sso')).status).toBe(409);
    } finally {
      expect((await admin.put('/api/district/sso/password-sign-in', { passwordSignIn: true })).status).toBe(200);
    }
  });
});
