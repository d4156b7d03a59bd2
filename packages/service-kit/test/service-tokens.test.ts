// Service tokens: a service answers /api and /internal only to callers holding the shared secret
// (the gateway, its peers), and reads the caller and the client's address only from the token.
import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import { jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiRouter,
  baseConfigSchema,
  clientAddress,
  closeServer,
  ConfigError,
  createLogger,
  createServiceApp,
  listen,
  parseConfig,
  SERVICE_TOKEN_HEADER,
  ServiceTokens,
} from '../src/index.ts';

const SECRET = 'the-current-secret-of-at-least-32-chars';
const OLD_SECRET = 'the-previous-secret-of-at-least-32-chars';
const tokens = new ServiceTokens(SECRET, { issuer: 'gateway', previousSecret: OLD_SECRET });
const CALLER = {
  userId: '11111111-1111-4111-8111-111111111111',
  role: 'teacher',
  tenantId: '22222222-2222-4222-8222-222222222222',
  sessionId: '33333333-3333-4333-8333-333333333333',
} as const;

const router = new ApiRouter().add(
  { method: 'get', path: '/api/whoami', summary: 'Who is calling', access: 'public' },
  ({ caller, req }) => ({ caller: caller ?? null, address: clientAddress(req) }),
);

let base = '';
let server: Server;
beforeAll(async () => {
  const app = createServiceApp({
    name: 'things',
    logger: createLogger('things', 'silent'),
    routers: [router],
    ready: async () => true,
    tokens,
    extra: (app) => {
      app.get('/openapi.json', (_req, res) => void res.json({ openapi: '3.1.0' }));
      app.post('/internal/ping', (_req, res) => void res.json({ pong: true }));
    },
  });
  ({ server } = await listen(app, 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => closeServer(server, 1000));

const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers });
const tokenHeader = (token: string) => ({ [SERVICE_TOKEN_HEADER]: token });

describe('service tokens', () => {
  it('when /api or /internal is called without a token, then 401 unauthenticated_peer, whatever the spelling', async () => {
    for (const res of [
      await get('/api/whoami'),
      await get('/API/whoami'),
      await get('/api/whoami/'),
      await fetch(`${base}/internal/ping`, { method: 'POST' }),
      await get('/api/unknown'),
    ]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'unauthenticated_peer' });
    }
  });

  it('when made-up caller headers come without a token, then they open nothing', async () => {
    const res = await get('/api/whoami', {
      'x-checkpoint-user-id': CALLER.userId,
      'x-checkpoint-user-role': 'admin',
      'x-checkpoint-tenant-id': CALLER.tenantId,
    });
    expect(res.status).toBe(401);
  });

  it('when probes and the OpenAPI document are called without a token, then they answer', async () => {
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/openapi.json')).status).toBe(200);
  });

  it('when the token is valid, then the caller and the address are the signed ones, never the headers', async () => {
    const token = await tokens.sign('things', { caller: CALLER, clientAddress: '203.0.113.7', requestId: 'r-1' });
    const res = await get('/api/whoami', {
      ...tokenHeader(token),
      'x-forwarded-for': '198.51.100.1',
      'x-checkpoint-user-role': 'admin',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ caller: CALLER, address: '203.0.113.7' });
    const ping = await fetch(`${base}/internal/ping`, { method: 'POST', headers: await tokens.headers('things') });
    expect(ping.status).toBe(200);
  });

  it('when a signed-out token carries no address, then X-Forwarded-For is still not believed', async () => {
    const res = await get('/api/whoami', {
      ...(await tokens.headers('things')),
      'x-forwarded-for': '198.51.100.1',
    });
    expect(await res.json()).toEqual({ caller: null, address: expect.stringMatching(/127\.0\.0\.1$/) });
  });

  it('when the token is for another service, signed with another secret, expired or not a JWS, then 401', async () => {
    const stranger = new ServiceTokens('somebody-elses-secret-of-32-characters!', { issuer: 'gateway' });
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('gateway')
      .setAudience('things')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ iss: 'gateway', aud: 'things', iat: 1, exp: 9_999_999_999 }),
    ).toString('base64url')}.`;
    for (const token of [
      await tokens.sign('identity', { caller: CALLER }),
      await stranger.sign('things', { caller: CALLER }),
      expired,
      unsigned,
      'garbage',
    ]) {
      const res = await get('/api/whoami', tokenHeader(token));
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'unauthenticated_peer' });
    }
  });

  it('when the secret is being rotated, then tokens of the previous secret are still accepted', async () => {
    const previous = new ServiceTokens(OLD_SECRET, { issuer: 'gateway' });
    const res = await get('/api/whoami', tokenHeader(await previous.sign('things', { caller: CALLER })));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ caller: CALLER });
  });

  it('when a token claims a caller with a malformed id or an unknown role, then it is refused', async () => {
    const key = new TextEncoder().encode(SECRET);
    const forged = await new SignJWT({ role: 'superuser', tid: CALLER.tenantId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(CALLER.userId)
      .setIssuer('gateway')
      .setAudience('things')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(key);
    expect((await get('/api/whoami', tokenHeader(forged))).status).toBe(401);
  });
});

describe('service tokens as JWS (signed and checked with node:crypto)', () => {
  const key = new TextEncoder().encode(SECRET);
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('gateway')
      .setAudience('things')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(key);

  it('when a token is signed here, then a standard JWT library verifies it with the caller in it', async () => {
    const token = await tokens.sign('things', { caller: CALLER, clientAddress: '203.0.113.7', requestId: 'r-2' });
    const { payload, protectedHeader } = await jwtVerify(token, key, { audience: 'things', issuer: 'gateway' });
    expect(protectedHeader).toEqual({ alg: 'HS256' });
    expect(payload).toMatchObject({
      sub: CALLER.userId,
      role: 'teacher',
      tid: CALLER.tenantId,
      addr: '203.0.113.7',
      rid: 'r-2',
    });
    expect(payload.exp! - payload.iat!).toBe(60);
  });

  it('when a standard library signs a token, then it is accepted, audience lists included', async () => {
    expect(await tokens.verify(await sign({}), 'things')).toEqual({ issuer: 'gateway' });
    const listed = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('gateway')
      .setAudience(['other', 'things'])
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(key);
    expect(await tokens.verify(listed, 'things')).toEqual({ issuer: 'gateway' });
  });

  it('when a token is not yet valid, lives too long, names a critical extension, lacks a claim or was altered, then it is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const valid = await sign({});
    const [head, body] = valid.split('.');
    // A header naming an extension the verifier must understand (jose will not even sign one).
    const critHead = Buffer.from(JSON.stringify({ alg: 'HS256', crit: ['x-ext'], 'x-ext': 1 })).toString('base64url');
    const withCritical = `${critHead}.${body}.${createHmac('sha256', key).update(`${critHead}.${body}`).digest('base64url')}`;
    const altered = `${head}.${Buffer.from(JSON.stringify({ iss: 'gateway', aud: 'things', iat: now, exp: now + 60, role: 'admin' })).toString('base64url')}.${valid.split('.')[2]}`;
    const refused = [
      await sign({ nbf: now + 60 }),
      await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('gateway')
        .setAudience('things')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key),
      withCritical,
      await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience('things')
        .setIssuedAt()
        .setExpirationTime('60s')
        .sign(key),
      await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('gateway')
        .setIssuedAt()
        .setExpirationTime('60s')
        .sign(key),
      altered,
      `${head}.${body}`,
      `${head}.${body}.`,
    ];
    for (const token of refused) expect(await tokens.verify(token, 'things')).toBeUndefined();
  });
});

describe('service token configuration', () => {
  const env = { DATABASE_URL: 'postgres://u:p@h/db' };

  it('when SERVICE_TOKEN_SECRET is unset or shorter than 32 characters, then the service does not start', () => {
    expect(() => parseConfig(baseConfigSchema, env)).toThrow(/SERVICE_TOKEN_SECRET: .*unset/);
    expect(() => parseConfig(baseConfigSchema, { ...env, SERVICE_TOKEN_SECRET: 'short' })).toThrow(ConfigError);
    expect(() => parseConfig(baseConfigSchema, { ...env, SERVICE_TOKEN_SECRET: 'x'.repeat(31) })).toThrow(
      /SERVICE_TOKEN_SECRET: must be at least 32 characters/,
    );
    expect(parseConfig(baseConfigSchema, { ...env, SERVICE_TOKEN_SECRET: SECRET }).SERVICE_TOKEN_SECRET).toBe(SECRET);
  });
});
