// The gateway signs every call it passes on (caller, client address, request id, audience), and
// believes X-Forwarded-For only from TRUSTED_PROXIES.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiRouter,
  clientAddress,
  closeServer,
  ConfigError,
  createLogger,
  createServiceApp,
  listen,
  parseConfig,
  peerClaims,
  SERVICE_TOKEN_HEADER,
  ServiceTokens,
} from '@checkpoint/service-kit';
import { createGateway, gatewayConfigSchema } from '../src/index.ts';

const SECRET = 'a-gateway-test-secret-of-32-characters';
const servers: Server[] = [];
let classUrl = '';

/** A stand-in class service: answers who the verified token says is calling, and from where. */
beforeAll(async () => {
  const router = new ApiRouter().add(
    { method: 'get', path: '/api/classes', summary: 'Echo', access: 'public' },
    ({ req }) => ({ address: clientAddress(req), claims: peerClaims(req) }),
  );
  const app = createServiceApp({
    name: 'class',
    logger: createLogger('class', 'silent'),
    routers: [router],
    ready: async () => true,
    tokens: new ServiceTokens(SECRET, { issuer: 'class' }),
  });
  const started = await listen(app, 0, '127.0.0.1');
  servers.push(started.server);
  classUrl = started.url;
});
afterAll(async () => {
  for (const s of servers) await closeServer(s, 1000);
});

async function gateway(env: Record<string, string> = {}): Promise<string> {
  const config = parseConfig(gatewayConfigSchema, {
    PORT: '0',
    CLASS_URL: classUrl,
    SERVICE_TOKEN_SECRET: SECRET,
    ...env,
  });
  const { server, url } = await listen(createGateway(config, createLogger('gateway', 'silent')), 0, '127.0.0.1');
  servers.push(server);
  return url;
}

describe('service tokens through the gateway', () => {
  it('when a client calls, then the service gets a token naming the gateway, the address and the request id', async () => {
    const base = await gateway();
    const res = await fetch(`${base}/api/classes`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { address: string; claims: Record<string, unknown> };
    expect(body.claims).toEqual({ issuer: 'gateway', clientAddress: body.address, requestId: expect.any(String) });
    expect(body.address).toMatch(/127\.0\.0\.1$/);
  });

  it('when a client sends its own service token or caller headers, then they are replaced', async () => {
    const base = await gateway();
    const forged = await new ServiceTokens('not-the-secret-but-32-characters-long', { issuer: 'gateway' }).sign(
      'class',
      { clientAddress: '203.0.113.9' },
    );
    const res = await fetch(`${base}/api/classes`, {
      headers: { [SERVICE_TOKEN_HEADER]: forged, 'x-checkpoint-user-id': '00000000-0000-4000-8000-000000000001' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { address: string }).address).toMatch(/127\.0\.0\.1$/);
  });

  it('when the gateway runs with another secret than the service, then the service refuses its calls', async () => {
    const base = await gateway({ SERVICE_TOKEN_SECRET: 'a-different-secret-of-32-characters!!' });
    const res = await fetch(`${base}/api/classes`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthenticated_peer' });
  });
});

describe('trusted proxies', () => {
  it('when TRUSTED_PROXIES is unset, then a made-up X-Forwarded-For does not change the client address', async () => {
    const base = await gateway();
    const res = await fetch(`${base}/api/classes`, { headers: { 'x-forwarded-for': '198.51.100.23' } });
    expect(((await res.json()) as { address: string }).address).toMatch(/127\.0\.0\.1$/);
  });

  it('when the gateway sits behind a trusted proxy (loopback here), then its X-Forwarded-For is the address', async () => {
    const base = await gateway({ TRUSTED_PROXIES: 'loopback' });
    const res = await fetch(`${base}/api/classes`, { headers: { 'x-forwarded-for': '198.51.100.23' } });
    expect(((await res.json()) as { address: string }).address).toBe('198.51.100.23');
  });

  it('when TRUSTED_PROXIES holds something else than addresses, ranges or keywords, then the gateway does not start', () => {
    const env = { SERVICE_TOKEN_SECRET: SECRET };
    for (const bad of ['everyone', '10.0.0.0/33', '10.0.0.1/8/1', 'fe80::/129', 'true']) {
      expect(() => parseConfig(gatewayConfigSchema, { ...env, TRUSTED_PROXIES: bad }), bad).toThrow(
        /TRUSTED_PROXIES: not an address/,
      );
    }
    expect(
      parseConfig(gatewayConfigSchema, {
        ...env,
        TRUSTED_PROXIES: 'loopback, 10.0.0.0/8,fd00::/8,192.168.1.1/255.255.0.0',
      }).TRUSTED_PROXIES,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.1/255.255.0.0']);
    expect(parseConfig(gatewayConfigSchema, env).TRUSTED_PROXIES).toEqual([]);
    expect(() => parseConfig(gatewayConfigSchema, {})).toThrow(ConfigError);
    expect(() => parseConfig(gatewayConfigSchema, {})).toThrow(/SERVICE_TOKEN_SECRET/);
  });
});
