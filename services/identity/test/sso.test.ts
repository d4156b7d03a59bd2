// District SSO against real local OpenID providers running at once (oidc-provider): the admin API
// (secret sealed at rest, discovery check), the look-up of a typed email, sign-in started by us and
// by the provider, the connection's rules (domains, Google hd, Entra tid), ID-token checks, key
// rotation, a disabled connection, and password sign-in turned off.
import { randomBytes, randomUUID } from 'node:crypto';
import { freePort } from '@checkpoint/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/domain/password.ts';
import { Browser, startHarness, type Harness } from './helpers.ts';
import { account, startLocalProvider, type LocalProvider } from './local-oidc-provider.ts';

const ENTRA_TID = '3f2b7c1e-5a4d-4e8f-9b0a-1c2d3e4f5a6b';
const SECRETS_KEY = randomBytes(32).toString('base64');

let h: Harness;
let identityUrl: string;
let pA: LocalProvider;
let pB: LocalProvider;
let pGoogle: LocalProvider;
let pEntra: LocalProvider;
const providers = () => [pA, pB, pGoogle, pEntra];

interface District {
  tenantId: string;
  domain: string;
  admin: Browser;
}
let A: District;
let B: District;
let G: District;
let E: District;

async function district(name: string, domain: string): Promise<District> {
  const tenantId = randomUUID();
  await h.db.query(`insert into tenants (id, name, kind, email_domains) values ($1, $2, 'district', $3)`, [
    tenantId,
    name,
    [domain],
  ]);
  const email = `admin@${domain}`;
  await member(tenantId, email, 'admin', 'correct horse');
  const admin = new Browser(identityUrl);
  const login = await admin.request('POST', '/api/auth/simple-login', { email, password: 'correct horse' });
  expect(login.status).toBe(200);
  return { tenantId, domain, admin };
}

async function member(tenantId: string, email: string, role: string, password?: string, verified = true) {
  const id = randomUUID();
  await h.db.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role, email_verified_at)
     values ($1, $2, $3, 'Pat', 'Member', $4, $5)`,
    [id, tenantId, email, role, verified ? new Date() : null],
  );
  if (password) {
    await h.db.query(`insert into credentials (user_id, password_hash) values ($1, $2)`, [
      id,
      await hashPassword(password),
    ]);
  }
  return id;
}

async function connect(d: District, p: LocalProvider, extra: Record<string, unknown> = {}) {
  const res = await d.admin.request('PUT', '/api/district/sso', {
    issuer: p.issuer,
    clientId: p.clientId,
    clientSecret: p.clientSecret,
    emailDomains: [d.domain],
    displayName: `${d.domain} sign-in`,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.connection as { id: string; kind: string };
}

/** Follows the provider's redirects (its own cookie jar) until it sends the browser back to identity. */
async function atProvider(start: { status: number; headers: Headers }): Promise<string> {
  expect(start.status).toBe(302);
  let location = start.headers.get('location')!;
  const origin = new URL(location).origin;
  const p = providers().find((x) => new URL(x.issuer).origin === origin);
  if (!p) throw new Error(`not a provider: ${location}`);
  const jar = new Browser(origin);
  for (let i = 0; i < 10; i++) {
    const url = new URL(location, origin);
    if (url.origin === new URL(identityUrl).origin) return url.pathname + url.search;
    const res = await jar.request('GET', url.pathname + url.search);
    if (res.status !== 302 && res.status !== 303) throw new Error(`provider answered ${res.status}: ${res.body}`);
    location = res.headers.get('location')!;
  }
  throw new Error('too many redirects at the provider');
}

/** Signs in from `startPath` and returns where identity sends the browser in the end. */
async function signIn(browser: Browser, startPath: string): Promise<string | null> {
  const start = await browser.request('GET', startPath);
  if (start.status === 302 && start.headers.get('location')!.startsWith('/')) return start.headers.get('location');
  const callbackPath = await atProvider(start);
  return (await browser.request('GET', callbackPath)).headers.get('location');
}

const startFor = (email: string) => `/api/auth/google?login_hint=${encodeURIComponent(email)}`;

beforeAll(async () => {
  const identityPort = await freePort();
  identityUrl = `http://127.0.0.1:${identityPort}`;
  const redirectUri = `${identityUrl}/api/auth/google/callback`;
  [pA, pB, pGoogle, pEntra] = await Promise.all([
    startLocalProvider({ redirectUri, clientId: 'district-a' }),
    startLocalProvider({ redirectUri, clientId: 'district-b' }),
    startLocalProvider({ redirectUri, clientId: 'google-sim' }),
    startLocalProvider({ redirectUri, clientId: 'entra-sim', path: `/${ENTRA_TID}/v2.0` }),
  ]);
  h = await startHarness({ PORT: String(identityPort), PUBLIC_URL: identityUrl, SECRETS_KEY, OIDC_CLIENT_ID: '' });
  A = await district('Alpha District', 'alpha.test');
  B = await district('Beta District', 'beta.test');
  G = await district('Gamma District', 'gamma.test');
  E = await district('Epsilon District', 'epsilon.test');
  await connect(A, pA);
  await connect(B, pB);
  // The kinds come from the issuer (accounts.google.com, login.microsoftonline.com/<tid>/v2.0):
  // local stand-ins get theirs set directly.
  await connect(G, pGoogle);
  await h.db.query(`update sso_connections set kind = 'google' where tenant_id = $1`, [G.tenantId]);
  await connect(E, pEntra);
  await h.db.query(`update sso_connections set kind = 'entra' where tenant_id = $1`, [E.tenantId]);
}, 180_000);
afterAll(async () => {
  await h?.stop();
  await Promise.all(providers().map((p) => p?.stop()));
}, 60_000);
beforeEach(() => {
  for (const p of providers()) {
    p.tamper = undefined;
    p.forge = false;
  }
});

describe('district SSO settings (admin API)', () => {
  it('when an admin saves the connection, then the secret is stored encrypted and never returned', async () => {
    const row = await h.db.query(`select client_secret, kind from sso_connections where tenant_id = $1`, [A.tenantId]);
    expect(row.rows[0].client_secret).not.toContain(pA.clientSecret);
    expect(row.rows[0].client_secret).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(row.rows[0].kind).toBe('generic');
    const got = await A.admin.request('GET', '/api/district/sso');
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(pA.clientSecret);
    expect(got.body).toMatchObject({
      connection: { issuer: pA.issuer, clientId: 'district-a', hasSecret: true, emailDomains: ['alpha.test'] },
      passwordSignIn: true,
      districtDomains: ['alpha.test'],
      redirectUri: `${identityUrl}/api/auth/google/callback`,
    });
    expect(got.body.connection.initiateLoginUri).toBe(`${identityUrl}/api/auth/sso/${got.body.connection.id}/initiate`);
    // Each admin sees their own district's.
    expect((await B.admin.request('GET', '/api/district/sso')).body.connection.issuer).toBe(pB.issuer);
  });

  it('when the connection is saved again without a secret, then the stored secret stays and sign-in still works', async () => {
    const res = await A.admin.request('PUT', '/api/district/sso', {
      issuer: pA.issuer,
      clientId: pA.clientId,
      emailDomains: ['alpha.test'],
      displayName: 'Alpha sign-in',
    });
    expect(res.status).toBe(200);
    expect(res.body.connection).toMatchObject({ hasSecret: true, displayName: 'Alpha sign-in' });
    pA.next = account('alpha.test');
    expect(await signIn(new Browser(identityUrl), startFor(pA.next.email))).toBe('/auth?google_signup=true');
  });

  it.each([
    ['an issuer whose discovery fails', { issuer: 'http://127.0.0.1:9/nothing' }, 'issuer'],
    ["Entra's shared issuer", { issuer: 'https://login.microsoftonline.com/common/v2.0' }, 'issuer'],
    ['an http issuer elsewhere', { issuer: 'http://idp.example.com' }, 'issuer'],
    ['a domain the district does not own', { emailDomains: ['beta.test'] }, 'emailDomains'],
    ['a new client id without its secret', { clientId: 'other', clientSecret: undefined }, 'clientSecret'],
  ])('when an admin saves %s, then 400 names the field', async (_what, change, field) => {
    const res = await A.admin.request('PUT', '/api/district/sso', {
      issuer: pA.issuer,
      clientId: pA.clientId,
      clientSecret: pA.clientSecret,
      emailDomains: ['alpha.test'],
      ...change,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields ?? {})).toContain(field);
  });

  it('when a teacher or a signed-out caller asks for the settings, then 403 / 401', async () => {
    await member(A.tenantId, `teacher.${Date.now()}@alpha.test`, 'teacher', 'correct horse');
    const teacher = new Browser(identityUrl);
    const email = (await h.db.query(`select email from users where role = 'teacher' and tenant_id = $1`, [A.tenantId]))
      .rows[0].email;
    await teacher.request('POST', '/api/auth/simple-login', { email, password: 'correct horse' });
    expect((await teacher.request('GET', '/api/district/sso')).status).toBe(403);
    expect((await new Browser(identityUrl).request('GET', '/api/district/sso')).status).toBe(401);
  });
});

describe('the sign-in page asks about a typed email', () => {
  it('when the email is at a district with a connection, then its button comes back; elsewhere none', async () => {
    const res = await new Browser(identityUrl).request('GET', '/api/auth/sso?email=Kim@Alpha.test');
    expect(res).toMatchObject({
      status: 200,
      body: {
        provider: { name: 'Alpha sign-in', startUrl: '/api/auth/google?login_hint=kim%40alpha.test' },
        passwordSignIn: true,
      },
    });
    const other = await new Browser(identityUrl).request('GET', '/api/auth/sso?email=kim@example.com');
    expect(other.body).toEqual({ provider: null, passwordSignIn: true });
    expect((await new Browser(identityUrl).request('GET', '/api/auth/sso?email=nope')).status).toBe(400);
  });

  it('when one address looks up too many emails, then 429', async () => {
    const strict = await h.start({ PORT: '0', RATE_LIMIT_SSO_LOOKUP_PER_MINUTE: '2' });
    try {
      const ip = `10.97.${Math.floor(Math.random() * 250)}.1`;
      for (let i = 0; i < 2; i++)
        expect((await new Browser(strict.url, ip).request('GET', '/api/auth/sso?email=a@alpha.test')).status).toBe(200);
      expect((await new Browser(strict.url, ip).request('GET', '/api/auth/sso?email=a@alpha.test')).status).toBe(429);
    } finally {
      await strict.stop();
    }
  });
});

describe("sign-in through a district's connection", () => {
  it('when a new member signs in, then the account is made in the district, verified, after the role step', async () => {
    pA.next = account('alpha.test');
    const browser = new Browser(identityUrl);
    const start = await browser.request('GET', startFor(pA.next.email));
    const authUrl = new URL(start.headers.get('location')!);
    expect(authUrl.origin).toBe(new URL(pA.issuer).origin);
    expect(authUrl.searchParams.get('client_id')).toBe('district-a');
    expect(authUrl.searchParams.get('login_hint')).toBe(pA.next.email);
    expect((await browser.request('GET', await atProvider(start))).headers.get('location')).toBe(
      '/auth?google_signup=true',
    );
    const done = await browser.request('POST', '/api/auth/google/complete', { role: 'teacher' });
    expect(done.body.user).toMatchObject({ tenantId: A.tenantId, accountType: 'district', role: 'teacher' });
    const row = await h.db.query(`select email_verified_at from users where id = $1`, [done.body.user.id]);
    expect(row.rows[0].email_verified_at).not.toBeNull();
    // Next time: straight in.
    expect(await signIn(new Browser(identityUrl), startFor(pA.next.email))).toBe('/');
  });

  it("when a verified member's existing account signs in the first time, then it is linked (D3)", async () => {
    pA.next = account('alpha.test');
    const id = await member(A.tenantId, pA.next.email, 'student', 'correct horse', true);
    const browser = new Browser(identityUrl);
    expect(await signIn(browser, startFor(pA.next.email))).toBe('/');
    expect((await browser.request('GET', '/api/auth/user')).body.id).toBe(id);
  });

  it("when the existing account's address was never verified, then the provider sign-in does not land in it", async () => {
    pA.next = account('alpha.test');
    const id = await member(A.tenantId, pA.next.email, 'student', 'correct horse', false);
    const browser = new Browser(identityUrl);
    expect(await signIn(browser, startFor(pA.next.email))).toBe('/auth?error=account_not_verified');
    expect(browser.cookie('cp_session')).toBeUndefined();
    expect((await h.db.query(`select 1 from external_identities where user_id = $1`, [id])).rowCount).toBe(0);
  });

  it("when a member of district A signs in through district B's connection, then B refuses", async () => {
    // B's provider vouches for an address of A's domain: not one of B's.
    pB.next = account('alpha.test');
    expect(await signIn(new Browser(identityUrl), startFor('someone@beta.test'))).toBe(
      '/auth?error=domain_not_allowed',
    );
    // A's member, known to A's provider, cannot reach A's account through B either.
    pB.next = account('beta.test');
    const elsewhere = await member(A.tenantId, pB.next.email.replace('beta.test', 'alpha.test'), 'student');
    await h.db.query(`insert into external_identities (id, user_id, issuer, subject) values ($1, $2, $3, $4)`, [
      randomUUID(),
      elsewhere,
      pB.issuer,
      pB.next.sub,
    ]);
    expect(await signIn(new Browser(identityUrl), startFor(pB.next.email))).toBe('/auth?error=wrong_district');
  });

  it('when the provider does not vouch for the address, then no account is made or linked', async () => {
    pA.next = account('alpha.test', { email_verified: false });
    expect(await signIn(new Browser(identityUrl), startFor(pA.next.email))).toBe('/auth?error=email_not_verified');
  });

  it.each([
    ['an audience for another client', (c: Record<string, unknown>) => ({ ...c, aud: 'district-b' })],
    ['a nonce from another sign-in (replayed)', (c: Record<string, unknown>) => ({ ...c, nonce: 'replayed-nonce' })],
    [
      'an expiry in the past',
      (c: Record<string, unknown>) => ({
        ...c,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 3600,
      }),
    ],
    ["district B's issuer", (c: Record<string, unknown>) => ({ ...c, iss: pB.issuer })],
  ])('when the ID token carries %s, then sign-in is refused and no session is made', async (_what, change) => {
    pA.next = account('alpha.test');
    pA.tamper = change;
    const browser = new Browser(identityUrl);
    expect(await signIn(browser, startFor(pA.next.email))).toBe('/auth?error=google_signin_failed');
    expect(browser.cookie('cp_session')).toBeUndefined();
  });

  it('when the ID token is signed by a key the provider does not publish, then sign-in is refused', async () => {
    pA.next = account('alpha.test');
    pA.forge = true;
    expect(await signIn(new Browser(identityUrl), startFor(pA.next.email))).toBe('/auth?error=google_signin_failed');
  });

  it('when the provider rotates its signing keys, then sign-in keeps working after the key set is fetched again', async () => {
    pA.next = account('alpha.test');
    expect(await signIn(new Browser(identityUrl), startFor(pA.next.email))).toBe('/auth?google_signup=true');
    const before = pA.kids();
    await pA.rotateKeys();
    expect(pA.kids()).not.toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // the key set's refetch cool-down
    pA.next = account('alpha.test');
    expect(await signIn(new Browser(identityUrl), startFor(pA.next.email))).toBe('/auth?google_signup=true');
  });
});

describe('the rules of the provider kinds', () => {
  it("when Google (kind google) says the account is managed by the district's domain (hd), then sign-in goes on; without hd it is refused", async () => {
    pGoogle.next = account('gamma.test', { hd: 'gamma.test' });
    expect(await signIn(new Browser(identityUrl), startFor(pGoogle.next.email))).toBe('/auth?google_signup=true');
    pGoogle.next = account('gamma.test');
    expect(await signIn(new Browser(identityUrl), startFor(pGoogle.next.email))).toBe('/auth?error=domain_not_allowed');
    pGoogle.next = account('gamma.test', { hd: 'elsewhere.test' });
    expect(await signIn(new Browser(identityUrl), startFor(pGoogle.next.email))).toBe('/auth?error=domain_not_allowed');
  });

  it("when Entra (kind entra) names the connection's directory (tid), then sign-in goes on; another directory is refused", async () => {
    // Entra rarely sends email_verified: the domain owner's verification (xms_edov) vouches.
    pEntra.next = account('epsilon.test', { tid: ENTRA_TID, email_verified: undefined, xms_edov: true });
    expect(await signIn(new Browser(identityUrl), startFor(pEntra.next.email))).toBe('/auth?google_signup=true');
    pEntra.next = account('epsilon.test', { tid: randomUUID() });
    expect(await signIn(new Browser(identityUrl), startFor(pEntra.next.email))).toBe('/auth?error=wrong_district');
    pEntra.next = account('epsilon.test');
    expect(await signIn(new Browser(identityUrl), startFor(pEntra.next.email))).toBe('/auth?error=wrong_district');
  });
});

describe('sign-in the provider starts (third-party initiated login)', () => {
  const connectionOf = async (d: District) =>
    (await h.db.query(`select id from sso_connections where tenant_id = $1`, [d.tenantId])).rows[0].id as string;

  it('when the provider starts a sign-in with its issuer, then the code flow runs and the member lands on the target page', async () => {
    pA.next = account('alpha.test');
    await member(A.tenantId, pA.next.email, 'teacher', undefined, true);
    const id = await connectionOf(A);
    const browser = new Browser(identityUrl);
    const path = `/api/auth/sso/${id}/initiate?iss=${encodeURIComponent(pA.issuer)}&target_link_uri=${encodeURIComponent(`${identityUrl}/classes`)}`;
    const start = await browser.request('GET', path);
    const authUrl = new URL(start.headers.get('location')!);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('nonce')).toBeTruthy();
    expect((await browser.request('GET', await atProvider(start))).headers.get('location')).toBe('/classes');
    expect((await browser.request('GET', '/api/auth/user')).status).toBe(200);
  });

  it("when the iss is not the connection's, the connection is unknown, or the target is elsewhere, then no flow starts or the target is ignored", async () => {
    const id = await connectionOf(A);
    const browser = new Browser(identityUrl);
    const wrongIss = await browser.request('GET', `/api/auth/sso/${id}/initiate?iss=${encodeURIComponent(pB.issuer)}`);
    expect(wrongIss.headers.get('location')).toBe('/auth?error=sso_invalid_request');
    const unknown = await browser.request(
      'GET',
      `/api/auth/sso/${randomUUID()}/initiate?iss=${encodeURIComponent(pA.issuer)}`,
    );
    expect(unknown.headers.get('location')).toBe('/auth?error=sso_unavailable');
    expect((await browser.request('GET', `/api/auth/sso/not-an-id/initiate?iss=x`)).headers.get('location')).toBe(
      '/auth?error=sso_unavailable',
    );
    expect((await browser.request('GET', `/api/auth/sso/${id}/initiate`)).status).toBe(400);

    pA.next = account('alpha.test');
    await member(A.tenantId, pA.next.email, 'teacher', undefined, true);
    const elsewhere = `/api/auth/sso/${id}/initiate?iss=${encodeURIComponent(pA.issuer)}&target_link_uri=${encodeURIComponent('https://evil.example/x')}`;
    expect(await signIn(new Browser(identityUrl), elsewhere)).toBe('/');
  });
});

describe('a disabled connection, and password sign-in off', () => {
  it('when password sign-in is turned off, then members get 403 with the district message, and the connection cannot go while it is off', async () => {
    const email = `pw.${Date.now()}@beta.test`;
    await member(B.tenantId, email, 'teacher', 'correct horse');
    const off = await B.admin.request('PUT', '/api/district/sso/password-sign-in', { passwordSignIn: false });
    expect(off.status).toBe(200);
    expect(off.body.passwordSignIn).toBe(false);
    const refused = await new Browser(identityUrl).request('POST', '/api/auth/simple-login', {
      email,
      password: 'correct horse',
    });
    expect(refused).toMatchObject({
      status: 403,
      body: {
        code: 'password_sign_in_disabled',
        message:
          'Beta District signs in with its own provider. Use “Continue with beta.test sign-in” on the sign-in page.',
      },
    });
    // A wrong password still says only that.
    expect(
      (await new Browser(identityUrl).request('POST', '/api/auth/simple-login', { email, password: 'wrong one' }))
        .status,
    ).toBe(401);
    expect((await new Browser(identityUrl).request('GET', `/api/auth/sso?email=${email}`)).body.passwordSignIn).toBe(
      false,
    );
    expect((await B.admin.request('DELETE', '/api/district/sso')).status).toBe(409);
    const disable = await B.admin.request('PUT', '/api/district/sso', {
      issuer: pB.issuer,
      clientId: pB.clientId,
      emailDomains: ['beta.test'],
      enabled: false,
    });
    expect(disable.status).toBe(409);
    // Back on (the admin's own session predates the change and still works).
    expect((await B.admin.request('PUT', '/api/district/sso/password-sign-in', { passwordSignIn: true })).status).toBe(
      200,
    );
    expect(
      (await new Browser(identityUrl).request('POST', '/api/auth/simple-login', { email, password: 'correct horse' }))
        .status,
    ).toBe(200);
  });

  it('when a district without an enabled connection turns password sign-in off, then 409', async () => {
    const d = await district('Zeta District', `zeta${Date.now()}.test`);
    const res = await d.admin.request('PUT', '/api/district/sso/password-sign-in', { passwordSignIn: false });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('connection_required');
  });

  it('when the connection is disabled, then the button disappears and its sign-ins, even one under way, are refused', async () => {
    pB.next = account('beta.test');
    const underWay = new Browser(identityUrl);
    const start = await underWay.request('GET', startFor(pB.next.email));
    const callbackPath = await atProvider(start);
    const id = (await h.db.query(`select id from sso_connections where tenant_id = $1`, [B.tenantId])).rows[0].id;
    const disable = await B.admin.request('PUT', '/api/district/sso', {
      issuer: pB.issuer,
      clientId: pB.clientId,
      emailDomains: ['beta.test'],
      enabled: false,
    });
    expect(disable.status).toBe(200);
    try {
      expect((await underWay.request('GET', callbackPath)).headers.get('location')).toBe('/auth?error=sso_unavailable');
      expect(
        (await new Browser(identityUrl).request('GET', '/api/auth/sso?email=x@beta.test')).body.provider,
      ).toBeNull();
      const initiate = await new Browser(identityUrl).request(
        'GET',
        `/api/auth/sso/${id}/initiate?iss=${encodeURIComponent(pB.issuer)}`,
      );
      expect(initiate.headers.get('location')).toBe('/auth?error=sso_unavailable');
      // Without the connection and without Google configured, the start says so on the sign-in page.
      expect((await new Browser(identityUrl).request('GET', startFor('x@beta.test'))).headers.get('location')).toBe(
        '/auth?error=google_not_configured',
      );
    } finally {
      await B.admin.request('PUT', '/api/district/sso', {
        issuer: pB.issuer,
        clientId: pB.clientId,
        emailDomains: ['beta.test'],
        enabled: true,
      });
    }
  });
});

describe('the secrets key', () => {
  it('when SECRETS_KEY is rotated (the old one as SECRETS_KEY_PREVIOUS), then secrets are sealed again at start and sign-in works', async () => {
    const before = (await h.db.query(`select client_secret from sso_connections where tenant_id = $1`, [A.tenantId]))
      .rows[0].client_secret as string;
    const newKey = randomBytes(32).toString('base64');
    const rotated = await h.start({ PORT: '0', SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: SECRETS_KEY });
    try {
      const after = (await h.db.query(`select client_secret from sso_connections where tenant_id = $1`, [A.tenantId]))
        .rows[0].client_secret as string;
      expect(after.split(':')[1]).not.toBe(before.split(':')[1]);
      expect(after).not.toContain(pA.clientSecret);
      pA.next = account('alpha.test');
      expect(await signIn(new Browser(rotated.url), startFor(pA.next.email))).toBe('/auth?google_signup=true');
    } finally {
      await rotated.stop();
    }
    // Back to the first key for the instance the other tests use.
    await (await h.start({ PORT: '0', SECRETS_KEY, SECRETS_KEY_PREVIOUS: newKey })).stop();
  });

  it('when a connection still holds a plain secret (written before migration 005), then it is sealed at start', async () => {
    const d = await district('Omicron District', `omicron${Date.now()}.test`);
    const id = randomUUID();
    await h.db.query(
      `insert into sso_connections (id, tenant_id, issuer, client_id, client_secret, email_domains)
       values ($1, $2, $3, $4, 'plain-old-secret', $5)`,
      [id, d.tenantId, pA.issuer, pA.clientId, [d.domain]],
    );
    await (await h.start({ PORT: '0' })).stop();
    const row = await h.db.query(`select client_secret from sso_connections where id = $1`, [id]);
    expect(row.rows[0].client_secret).toMatch(/^v1:/);
    expect(row.rows[0].client_secret).not.toContain('plain-old-secret');
  });

  it('when SECRETS_KEY is not a 32-byte key, then the service does not start', async () => {
    await expect(h.start({ PORT: '0', SECRETS_KEY: 'too-short' })).rejects.toThrow(/SECRETS_KEY/);
  });
});
