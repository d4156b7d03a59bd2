import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServiceTokens } from '@checkpoint/testkit';
import { createPrisma } from '../src/data-access/prisma.ts';
import { sessionsRepository } from '../src/data-access/sessions.repository.ts';
import { Browser, signUpByLink, startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.stop(), 60_000);

async function signedIn() {
  const { browser, user } = await signUpByLink(h);
  return { browser, user, refresh: browser.cookie('cp_refresh')!, csrf: browser.cookie('cp_csrf')! };
}

const refresh = async (refreshToken: string) =>
  fetch(new URL('/internal/sessions/refresh', h.identity.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await testServiceTokens.headers('identity')) },
    body: JSON.stringify({ refreshToken }),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are checked with matchers
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('sessions', () => {
  it('when the access token is checked against the JWKS, then it verifies with the expected claims', async () => {
    const { browser, user, csrf } = await signedIn();
    const jwks = (await (await fetch(new URL('/.well-known/jwks.json', h.identity.url))).json()) as JSONWebKeySet;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
    expect(jwks.keys[0]!.d).toBeUndefined();
    const { payload, protectedHeader } = await jwtVerify(browser.cookie('cp_session')!, createLocalJWKSet(jwks), {
      issuer: 'checkpoint-identity',
      audience: 'checkpoint',
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: jwks.keys[0]!.kid });
    expect(payload).toMatchObject({ sub: user.id, role: 'teacher', tid: user.tenantId, csrf, sid: expect.any(String) });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(jwks.keys[0]!.kid).toBeTruthy();
  });

  it('when a second replica starts on the same database, then it signs with the same published key', async () => {
    const second = await h.start();
    const a = await (await fetch(new URL('/.well-known/jwks.json', h.identity.url))).json();
    const b = await (await fetch(new URL('/.well-known/jwks.json', second.url))).json();
    expect(b).toEqual(a);
    await second.stop();
  });

  it('when the refresh token is used, then it is rotated and the old one still works only within the grace window', async () => {
    const { user, refresh: first, csrf } = await signedIn();
    const r1 = await refresh(first);
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({
      accessToken: expect.any(String),
      accessTokenMaxAgeSeconds: 900,
      refreshToken: expect.any(String),
      csrf,
      user: { id: user.id, role: 'teacher', tenantId: user.tenantId },
    });
    expect(r1.body.refreshToken).not.toBe(first);
    // A parallel request that still sent the old token: new access token, no new refresh token.
    const parallel = await refresh(first);
    expect(parallel.status).toBe(200);
    expect(parallel.body.refreshToken).toBeUndefined();
    expect(parallel.body.accessToken).toEqual(expect.any(String));
    // The successor keeps rotating.
    const r2 = await refresh(r1.body.refreshToken);
    expect(r2.status).toBe(200);
    expect(r2.body.refreshToken).toEqual(expect.any(String));
  });

  it('when a rotated token comes back after the grace window, then the whole session family is revoked', async () => {
    const { browser, refresh: first } = await signedIn();
    const r1 = await refresh(first);
    await h.db.query(
      `update sessions set rotated_at = rotated_at - interval '31 seconds' where rotated_at is not null`,
    );
    const reuse = await refresh(first);
    expect(reuse).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    // The legitimate successor is dead too, and so is the signed-in session.
    expect((await refresh(r1.body.refreshToken)).status).toBe(401);
    expect((await browser.request('GET', '/api/auth/user')).status).toBe(401);
  });

  it('when the session has been idle too long or passed its absolute end, then refresh is refused', async () => {
    const idle = await signedIn();
    await h.db.query(
      `update sessions set last_used_at = now() - interval '13 hours' where token_hash = encode(sha256($1::bytea), 'hex')`,
      [idle.refresh],
    );
    expect((await refresh(idle.refresh)).status).toBe(401);
    const old = await signedIn();
    await h.db.query(
      `update sessions set expires_at = now() - interval '1 second' where token_hash = encode(sha256($1::bytea), 'hex')`,
      [old.refresh],
    );
    expect((await refresh(old.refresh)).status).toBe(401);
    expect((await refresh('not-a-token')).status).toBe(401);
    expect((await refresh('')).status).toBe(400);
  });

  it('when the user logs out, then their refresh token no longer works', async () => {
    const { browser, refresh: token } = await signedIn();
    await browser.request('POST', '/api/auth/logout');
    expect((await refresh(token)).status).toBe(401);
  });

  it('when sessions end, then the internal list of revoked sessions names them, from `since` on', async () => {
    const revoked = async (query = '') => {
      const res = await fetch(new URL(`/internal/sessions/revoked${query}`, h.identity.url), {
        headers: await testServiceTokens.headers('identity'),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are checked with matchers
      return { status: res.status, body: (await res.json()) as any };
    };
    const before = await revoked();
    const { browser } = await signedIn();
    const live = await signedIn();
    const sid = (b: Browser) =>
      JSON.parse(Buffer.from(b.cookie('cp_session')!.split('.')[1]!, 'base64url').toString()).sid as string;
    const [ended, going] = [sid(browser), sid(live.browser)];
    await browser.request('POST', '/api/auth/logout');

    const all = await revoked();
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ accessTokenTtlSeconds: 900, asOf: expect.any(String) });
    const ids = all.body.sessions.map((s: { id: string }) => s.id);
    expect(ids).toContain(ended);
    expect(ids).not.toContain(going);
    expect(all.body.sessions).toHaveLength(before.body.sessions.length + 1);
    // Only what was revoked after `since`.
    expect((await revoked(`?since=${encodeURIComponent(all.body.asOf)}`)).body.sessions).toEqual([]);
    const bad = await revoked('?since=yesterday');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('since');
  });

  it('when housekeeping runs, then sessions that ended or were revoked over a day ago are deleted and the rest stay', async () => {
    const [ended, revoked, revokedLately, live] = await Promise.all([signedIn(), signedIn(), signedIn(), signedIn()]);
    const set = (column: string, age: string, who: typeof live) =>
      h.db.query(`update sessions set ${column} = now() - $1::interval where user_id = $2`, [age, who.user.id]);
    await set('expires_at', '2 days', ended);
    await set('revoked_at', '2 days', revoked);
    await set('revoked_at', '1 hour', revokedLately);
    const prisma = createPrisma(h.db, 'identity');
    try {
      expect(await sessionsRepository(prisma).deleteExpired()).toBeGreaterThanOrEqual(2);
    } finally {
      await prisma.$disconnect();
    }
    const rows = await h.db.query<{ user_id: string }>('select user_id from sessions where user_id = any($1::uuid[])', [
      [ended, revoked, revokedLately, live].map((s) => s.user.id),
    ]);
    expect(rows.rows.map((r) => r.user_id).sort()).toEqual([revokedLately.user.id, live.user.id].sort());
    const stale = await h.db.query(
      "select 1 from sessions where expires_at < now() - interval '1 day' or revoked_at < now() - interval '1 day'",
    );
    expect(stale.rowCount).toBe(0);
  });

  it('when the user signs in again, then a new session with new tokens starts', async () => {
    const { browser: a, ...body } = await signUpByLink(h);
    const b = new Browser(h.identity.url);
    await b.request('POST', '/api/auth/simple-login', { email: body.email, password: body.password });
    expect(b.cookie('cp_refresh')).not.toBe(a.cookie('cp_refresh'));
    expect(b.cookie('cp_csrf')).not.toBe(a.cookie('cp_csrf'));
    const { rows } = await h.db.query(
      `select count(distinct family_id)::int as n from sessions s join users u on u.id = s.user_id where u.email = $1`,
      [body.email],
    );
    expect(rows[0].n).toBe(2);
  });

  it('when the account is disabled, then refresh ends its sessions', async () => {
    const { user, refresh: token } = await signedIn();
    await h.db.query(`update users set disabled_at = now() where id = $1`, [user.id]);
    expect((await refresh(token)).status).toBe(401);
    const { rows } = await h.db.query(
      `select count(*)::int as n from sessions where user_id = $1 and revoked_at is null`,
      [user.id],
    );
    expect(rows[0].n).toBe(0);
  });
});
