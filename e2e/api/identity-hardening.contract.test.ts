// Through the gateway, with the real services: sign-in limits that an attacker cannot turn against
// the owner, refresh tokens handed out once, sign-out that ends the access token at once, and the
// signed-out Google start kept out of the error log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, gatewayConfigSchema, stopGateway } from '@checkpoint/gateway';
import { closeServer, createLogger, listen, parseConfig } from '@checkpoint/service-kit';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';
import { eventually, readMailOf, signUp } from './helpers.ts';

interface LogLine {
  level: number;
  msg?: string;
  req?: { id?: string; path?: string };
  res?: { statusCode?: number };
}

const PASSWORD = 'correct horse battery';
/** Shared with the second gateway replica below. */
const SERVICE_TOKEN_SECRET = 'identity-hardening-test-secret-0123456789';
const WARN = 40;
const INFO = 30;

let postgres: PostgresHandle;
let app: AllInOne;
let url: string;
const lines: LogLine[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  app = await startAllInOne({
    postgresUrl: postgres.url,
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('e2e', 'debug', { write: (line) => lines.push(JSON.parse(line) as LogLine) }),
    env: {
      LOG_LEVEL: 'debug',
      RATE_LIMIT_SIGNUP_PER_MINUTE: '10000',
      // The default sign-in limit: 10 a minute per address.
      RATE_LIMIT_LOGIN_PER_MINUTE: '10',
      // A revocation must not wait for the gateway's next poll of identity.
      SESSION_REVOCATION_CHECK_MS: '60000',
      // The tests below speak for several client addresses through X-Forwarded-For.
      TRUSTED_PROXIES: 'loopback',
      OIDC_CLIENT_ID: '',
      SERVICE_TOKEN_SECRET,
    },
  });
  url = app.url;
  readMailOf(url, app.mailbox!);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await postgres?.stop();
});

/** A signed-out sign-in from `address` (double-submit CSRF, as the web app does before a session). */
async function signIn(address: string, email: string, password: string) {
  const res = await fetch(`${url}/api/auth/simple-login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: 'cp_csrf=double-submit',
      'x-csrf-token': 'double-submit',
      origin: url,
      'x-forwarded-for': address,
    },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { message?: string } };
}

/** The value a response sets for a cookie, undefined when it does not set it. */
function setCookie(headers: Headers, name: string): string | undefined {
  for (const line of headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    if (pair.startsWith(`${name}=`)) return decodeURIComponent(pair.slice(name.length + 1));
  }
  return undefined;
}

describe('sign-in limits', () => {
  it('when an attacker fails ten times from one address, then that address is throttled but the owner signs in from another', async () => {
    const owner = await signUp(url, 'teacher');
    const email = owner.user!.email;
    for (let i = 0; i < 10; i++) expect((await signIn('203.0.113.7', email, `wrong-${i}`)).status).toBe(401);
    const blocked = await signIn('203.0.113.7', email, 'wrong-again');
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(blocked.body.message).toBe(`Too many sign-in attempts. Please wait ${retryAfter} seconds and try again.`);

    const fromHome = await signIn('198.51.100.9', email, PASSWORD);
    expect(fromHome.status).toBe(200);
    expect(setCookie(fromHome.headers, 'cp_session')).toBeTruthy();
    // The attacker's address stays throttled, even with the right password.
    expect((await signIn('203.0.113.7', email, PASSWORD)).status).toBe(429);
  }, 60_000);
});

describe('refresh through the gateway', () => {
  it('when the old refresh token comes back right after a refresh, then it gets an access token but never the new refresh token', async () => {
    const user = await signUp(url, 'student');
    const first = user.cookies.get('cp_refresh')!;
    const withRefresh = (token: string) =>
      fetch(`${url}/api/auth/user`, { headers: { cookie: `cp_refresh=${encodeURIComponent(token)}` } });

    const refreshed = await withRefresh(first);
    expect(refreshed.status).toBe(200);
    const second = setCookie(refreshed.headers, 'cp_refresh');
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);

    // Within the gateway's 5 s of sharing that refresh, and identity's grace window.
    const replay = await withRefresh(first);
    expect(replay.status).toBe(200);
    expect(setCookie(replay.headers, 'cp_session')).toBeTruthy();
    expect(setCookie(replay.headers, 'cp_refresh')).toBeUndefined();
    expect(replay.headers.getSetCookie().join('\n')).not.toContain(encodeURIComponent(second!));

    // The successor still belongs to the browser that rotated: it rotates once more.
    const next = await withRefresh(second!);
    expect(next.status).toBe(200);
    expect(setCookie(next.headers, 'cp_refresh')).not.toBe(second);
  });

  it('when parallel requests share one refresh, then exactly one of them carries the new refresh token', async () => {
    const user = await signUp(url, 'student');
    const token = encodeURIComponent(user.cookies.get('cp_refresh')!);
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => fetch(`${url}/api/auth/user`, { headers: { cookie: `cp_refresh=${token}` } })),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const successors = replies.map((r) => setCookie(r.headers, 'cp_refresh')).filter(Boolean);
    expect(successors).toHaveLength(1);
    for (const r of replies) expect(setCookie(r.headers, 'cp_session')).toBeTruthy();
  });
});

describe('signing out', () => {
  it('when a session signs out, then a copy of its access cookie is refused at once, before the next revocation poll', async () => {
    const teacher = await signUp(url, 'teacher');
    const copied = `cp_session=${encodeURIComponent(teacher.cookies.get('cp_session')!)}`;
    // The class service trusts the gateway's check alone (identity also looks at the session row).
    const withCopy = () => fetch(`${url}/api/classes`, { headers: { cookie: copied } });
    // This request makes the gateway fetch the revoked list now: the next fetch is a minute away.
    expect((await withCopy()).status).toBe(200);

    expect((await teacher.post('/api/auth/logout')).status).toBe(204);
    expect((await withCopy()).status).toBe(401);
    expect((await fetch(`${url}/api/auth/user`, { headers: { cookie: copied } })).status).toBe(401);
  });

  it('when a session signs out through one gateway, then another replica refuses its access cookie within a moment, long before its next poll', async () => {
    const upstream = (name: string) => app.services.find((s) => s.name === name)!.url;
    const replica = createGateway(
      parseConfig(gatewayConfigSchema, {
        SERVICE_TOKEN_SECRET,
        PUBLIC_URL: url,
        IDENTITY_URL: upstream('identity'),
        CLASS_URL: upstream('class'),
        // Polled only once a minute: the sign-out must come through the request held at identity.
        SESSION_REVOCATION_CHECK_MS: '60000',
        SESSION_REVOCATION_WAIT_SECONDS: '20',
      }),
      createLogger('gateway-2', 'silent'),
    );
    const { server, url: replicaUrl } = await listen(replica, 0, '127.0.0.1');
    try {
      const teacher = await signUp(url, 'teacher');
      const copied = `cp_session=${encodeURIComponent(teacher.cookies.get('cp_session')!)}`;
      const viaReplica = () => fetch(`${replicaUrl}/api/classes`, { headers: { cookie: copied } });
      // The replica's first check fetches the list and starts holding a request at identity.
      expect((await viaReplica()).status).toBe(200);
      await new Promise((r) => setTimeout(r, 500));

      expect((await teacher.post('/api/auth/logout')).status).toBe(204);
      const signedOutAt = Date.now();
      const refused = await eventually(viaReplica, (res) => res.status === 401, 3_000);
      expect(refused.status).toBe(401);
      expect(Date.now() - signedOutAt).toBeLessThan(3_000);
    } finally {
      stopGateway(replica);
      await closeServer(server, 1_000);
    }
  });

  it('when a sign-out is refused for CSRF, then the session goes on', async () => {
    const teacher = await signUp(url, 'teacher');
    const cookie = [...teacher.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    const forged = await fetch(`${url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect((await teacher.get('/api/classes')).status).toBe(200);
  });
});

describe('Google sign-in while not configured', () => {
  it('when anyone starts it signed out, then the browser goes back to the sign-in page with a reason and nothing is logged above info', async () => {
    const from = lines.length;
    const replies = await Promise.all(
      Array.from({ length: 3 }, () => fetch(`${url}/api/auth/google`, { redirect: 'manual' })),
    );
    for (const res of replies) {
      // Never a JSON page in the browser: the sign-in page explains the code.
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/auth?error=google_not_configured');
    }
    const logged = lines.slice(from).filter((l) => l.req?.path === '/api/auth/google' || /google/i.test(l.msg ?? ''));
    // Still logged (the gateway's access log at info), never as a warning or an error.
    expect(logged.filter((l) => l.level === INFO && l.res?.statusCode === 302).length).toBeGreaterThanOrEqual(3);
    expect(logged.filter((l) => l.level >= WARN)).toEqual([]);
  });
});
