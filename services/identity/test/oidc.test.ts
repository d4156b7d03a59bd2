// Sign-in with Google / OpenID Connect against a real local provider (oidc-provider), with a
// hook that can tamper with the ID token the provider returns (re-signed with the provider's key).
import { createServer, type Server } from 'node:http';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { createLogger } from '@checkpoint/service-kit';
import { freePort } from '@checkpoint/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Browser, signUpBody, signUpByLink, startHarness, type Harness } from './helpers.ts';

interface Account {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
}

let h: Harness;
let providerServer: Server;
let issuer: string;
let identityUrl: string;
let nextAccount: Account;
let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
let signingKey: CryptoKey;
const KID = 'test-provider-key';

async function startProvider(port: number, redirectUri: string) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  signingKey = privateKey;
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: KID, alg: 'RS256', use: 'sig' };
  issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'checkpoint',
        client_secret: 'checkpoint-secret',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: 'acme-sso',
        client_secret: 'acme-secret',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['oidc-test-cookie-key'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name', 'picture'],
    },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        ...nextAccount,
        sub: id,
        email_verified: true,
        name: `${nextAccount.given_name} ${nextAccount.family_name}`,
      }),
    }),
  });
  provider.proxy = false;
  // The tamper hook: change the ID token's claims after the provider issued it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are checked with matchers
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    if (ctx.path === '/token' && tamper && ctx.body?.id_token) {
      const claims = tamper(decodeJwt(ctx.body.id_token) as Record<string, unknown>);
      ctx.body = {
        ...ctx.body,
        id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: KID }).sign(signingKey),
      };
    }
  });
  const callback = provider.callback();
  const server = createServer(async (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      try {
        // The user "logs in" as nextAccount and consents at once.
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: nextAccount.sub, clientId: details.params.client_id });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: nextAccount.sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** Follows redirects at the provider (own cookie jar) until it sends the browser back to identity. */
async function signInAt(browser: Browser, startPath: string): Promise<{ callbackPath: string; authUrl: URL }> {
  const start = await browser.request('GET', startPath);
  expect(start.status).toBe(302);
  const authUrl = new URL(start.headers.get('location')!);
  const providerJar = new Browser(issuer);
  let location = authUrl.href;
  for (let i = 0; i < 10; i++) {
    const url = new URL(location, issuer);
    if (url.origin === new URL(identityUrl).origin) return { callbackPath: url.pathname + url.search, authUrl };
    const res = await providerJar.request('GET', url.pathname + url.search);
    if (res.status !== 302 && res.status !== 303)
      throw new Error(`provider answered ${res.status}: ${JSON.stringify(res.body)}`);
    location = res.headers.get('location')!;
  }
  throw new Error('too many redirects at the provider');
}

function account(overrides: Partial<Account> = {}): Account {
  const n = Math.random().toString(36).slice(2, 10);
  return { sub: `sub-${n}`, email: `g.${n}@example.com`, given_name: 'Grace', family_name: 'Hopper', ...overrides };
}

beforeAll(async () => {
  const identityPort = await freePort();
  const providerPort = await freePort();
  identityUrl = `http://127.0.0.1:${identityPort}`;
  providerServer = await startProvider(providerPort, `${identityUrl}/api/auth/google/callback`);
  h = await startHarness({
    PORT: String(identityPort),
    PUBLIC_URL: identityUrl,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: 'checkpoint',
    OIDC_CLIENT_SECRET: 'checkpoint-secret',
  });
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await new Promise((resolve) => providerServer?.close(resolve));
}, 60_000);
beforeEach(() => {
  tamper = undefined;
});

describe('sign-in with Google (OpenID Connect)', () => {
  it('when a new person signs in, then they choose a role and get an account and a session', async () => {
    nextAccount = account();
    const browser = new Browser(identityUrl);
    const { callbackPath, authUrl } = await signInAt(browser, '/api/auth/google');
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('nonce')).toBeTruthy();
    expect(authUrl.searchParams.get('state')).toBeTruthy();
    const back = await browser.request('GET', callbackPath);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/auth?google_signup=true');
    expect(browser.cookie('cp_session')).toBeUndefined();

    const done = await browser.request('POST', '/api/auth/google/complete', { role: 'student' });
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({
      email: nextAccount.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'student',
      accountType: 'individual',
    });
    expect((await browser.request('GET', '/api/auth/user')).body.id).toBe(done.body.user.id);
    const events = await h.db.query(`select type from outbox where key = $1`, [done.body.user.id]);
    expect(events.rows.map((r) => r.type)).toEqual(['checkpoint.identity.v1.UserRegistered']);
    // The pending sign-up is used up.
    expect((await browser.request('POST', '/api/auth/google/complete', { role: 'teacher' })).status).toBe(400);

    // Next time the same Google account signs straight in.
    const again = new Browser(identityUrl);
    const second = await signInAt(again, '/api/auth/google');
    const signedIn = await again.request('GET', second.callbackPath);
    expect(signedIn.headers.get('location')).toBe('/');
    expect((await again.request('GET', '/api/auth/user')).body.id).toBe(done.body.user.id);
  });

  it('when there is no pending Google sign-up, then completing answers 400 with a clear message', async () => {
    const res = await new Browser(identityUrl).request('POST', '/api/auth/google/complete', { role: 'teacher' });
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'No Google sign-up in progress. Please sign in with Google again.' },
    });
  });

  it("when a password account holds the victim's address unverified, then the victim's later Google sign-in does not land in that account (attack 2, D3)", async () => {
    // A password sign-up now proves the address by its link, but older accounts (and accounts whose
    // provider did not vouch for the address) may hold one unverified: such an account is never
    // taken for the address's owner.
    const body = signUpBody();
    const created = { body: await signUpByLink(h, body) };
    await h.db.query('update users set email_verified_at = null where id = $1', [created.body.user.id]);
    nextAccount = account({ email: body.email });
    const victim = new Browser(identityUrl);
    const { callbackPath } = await signInAt(victim, '/api/auth/google');
    const back = await victim.request('GET', callbackPath);
    expect(back.headers.get('location')).toBe('/auth?error=account_not_verified');
    expect(victim.cookie('cp_session')).toBeUndefined();
    expect(victim.cookie('cp_google_signup')).toBeUndefined();
    const linked = await h.db.query(`select 1 from external_identities where user_id = $1`, [created.body.user.id]);
    expect(linked.rowCount).toBe(0);
  });

  it('when an existing password account whose address was verified signs in with Google, then it is linked and signed in', async () => {
    const body = signUpBody();
    // The sign-up link verified the address.
    const created = { body: await signUpByLink(h, body) };
    nextAccount = account({ email: body.email });
    const browser = new Browser(identityUrl);
    const { callbackPath } = await signInAt(browser, '/api/auth/google');
    const back = await browser.request('GET', callbackPath);
    expect(back.headers.get('location')).toBe('/');
    const me = await browser.request('GET', '/api/auth/user');
    expect(me.body.id).toBe(created.body.user.id);
    const linked = await h.db.query(`select issuer, subject from external_identities where user_id = $1`, [
      created.body.user.id,
    ]);
    expect(linked.rows).toEqual([{ issuer, subject: nextAccount.sub }]);
  });

  it('when the callback is replayed, or arrives without the flow cookie, then it is rejected', async () => {
    nextAccount = account();
    const browser = new Browser(identityUrl);
    const { callbackPath } = await signInAt(browser, '/api/auth/google');
    const flowCookie = browser.cookie('cp_oidc_flow')!;
    expect((await browser.request('GET', callbackPath)).headers.get('location')).toBe('/auth?google_signup=true');
    browser.cookies.set('cp_oidc_flow', { value: flowCookie, attributes: '' });
    const replay = await browser.request('GET', callbackPath);
    expect(replay.headers.get('location')).toBe('/auth?error=google_signin_failed');

    const other = new Browser(identityUrl);
    const second = await signInAt(other, '/api/auth/google');
    other.cookies.delete('cp_oidc_flow');
    expect((await other.request('GET', second.callbackPath)).headers.get('location')).toBe(
      '/auth?error=google_signin_failed',
    );
  });

  it('when the ID token is re-signed by the provider key without changes, then sign-in still works (control for the cases below)', async () => {
    nextAccount = account();
    tamper = (c) => c;
    const browser = new Browser(identityUrl);
    const { callbackPath } = await signInAt(browser, '/api/auth/google');
    expect((await browser.request('GET', callbackPath)).headers.get('location')).toBe('/auth?google_signup=true');
  });

  it.each([
    ['an audience for another client', (c: Record<string, unknown>) => ({ ...c, aud: 'someone-else' })],
    ['a nonce from another sign-in', (c: Record<string, unknown>) => ({ ...c, nonce: 'replayed-nonce' })],
    [
      'an expiry in the past',
      (c: Record<string, unknown>) => ({
        ...c,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 3600,
      }),
    ],
    ['another issuer', (c: Record<string, unknown>) => ({ ...c, iss: 'https://evil.example.com' })],
  ])('when the ID token carries %s, then sign-in is rejected and no session is made', async (_what, change) => {
    nextAccount = account();
    tamper = change;
    const browser = new Browser(identityUrl);
    const { callbackPath } = await signInAt(browser, '/api/auth/google');
    const back = await browser.request('GET', callbackPath);
    expect(back.headers.get('location')).toBe('/auth?error=google_signin_failed');
    expect(browser.cookie('cp_session')).toBeUndefined();
    expect(browser.cookie('cp_google_signup')).toBeUndefined();
  });

  it('when one address starts sign-ins over and over, then past the limit it is sent back to the sign-in page (Retry-After) and no pending flow is stored', async () => {
    const strict = await h.start({ PORT: '0', RATE_LIMIT_OIDC_START_PER_MINUTE: '2' });
    try {
      const ip = `10.96.${Math.floor(Math.random() * 250)}.1`;
      const flows = async () => Number((await h.db.query('select count(*) from oidc_flows')).rows[0].count);
      for (let i = 0; i < 2; i++)
        expect((await new Browser(strict.url, ip).request('GET', '/api/auth/google')).status).toBe(302);
      const before = await flows();
      const refused = await new Browser(strict.url, ip).request('GET', '/api/auth/google');
      expect(refused.status).toBe(302);
      expect(refused.headers.get('location')).toBe('/auth?error=too_many_attempts');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.getSetCookie().join('\n')).not.toContain('cp_oidc_flow');
      expect(await flows()).toBe(before);
      // Another address starts as usual.
      expect((await new Browser(strict.url, `${ip}0`).request('GET', '/api/auth/google')).status).toBe(302);
    } finally {
      await strict.stop();
    }
  });

  it('when anyone starts Google sign-in while it is not configured, or calls back without a flow, then the browser goes back to the sign-in page and nothing is logged above info', async () => {
    const lines: { level: number; msg?: string; req?: { path?: string }; res?: { statusCode?: number } }[] = [];
    const logger = createLogger('identity', 'debug', { write: (line) => lines.push(JSON.parse(line)) });
    const bare = await h.start({ PORT: '0', OIDC_CLIENT_ID: '' }, logger);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await new Browser(bare.url).request('GET', '/api/auth/google');
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('/auth?error=google_not_configured');
      }
      const callback = await new Browser(bare.url).request('GET', '/api/auth/google/callback?code=x&state=y');
      expect(callback.headers.get('location')).toBe('/auth?error=google_signin_failed');
      const google = lines.filter(
        (l) => l.req?.path?.startsWith('/api/auth/google') || /google|openid/i.test(l.msg ?? ''),
      );
      // Each call is still logged, at info: a client's condition, not a failure of the service.
      expect(google.filter((l) => l.level === 30 && l.res?.statusCode === 302)).toHaveLength(4);
      expect(google.filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await bare.stop();
    }
  });

  it('when no provider is configured, then starting Google sign-in sends the browser to the sign-in page with a reason, never a JSON page', async () => {
    const bare = await h.start({ PORT: '0', OIDC_CLIENT_ID: '' });
    try {
      const res = await new Browser(bare.url).request('GET', '/api/auth/google');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/auth?error=google_not_configured');
      expect(res.headers.get('content-type') ?? '').not.toContain('json');
    } finally {
      await bare.stop();
    }
  });
});
