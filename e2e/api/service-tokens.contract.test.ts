// Through the gateway, with the real services: the services answer only calls carrying the
// gateway's (or a peer's) service token, and a made-up X-Forwarded-For does not give a client a
// new address for the rate limits unless the gateway is told to trust a proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from './helpers.ts';

const SIGNUP_LIMIT = 3;
let backend: Backend;
let behindProxy: Backend;
beforeAll(async () => {
  const env = { RATE_LIMIT_SIGNUP_PER_MINUTE: String(SIGNUP_LIMIT) };
  backend = await startBackend(env);
  behindProxy = await startBackend({ ...env, TRUSTED_PROXIES: 'loopback' });
});
afterAll(async () => {
  await backend?.stop();
  await behindProxy?.stop();
});

let n = 0;
/** One sign-up as a browser would send it (CSRF double submit), claiming to come from `forwardedFor`. */
async function signUpFrom(b: Backend, forwardedFor: string): Promise<number> {
  const id = `${Date.now().toString(36)}${(n++).toString(36)}`;
  const res = await fetch(`${b.url}/api/auth/simple-signup`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: 'cp_csrf=double-submit',
      'x-csrf-token': 'double-submit',
      'x-forwarded-for': forwardedFor,
    },
    body: JSON.stringify({
      firstName: 'Tess',
      lastName: `Proxy${id}`,
      email: `teacher.${id}@proxy-${id}.example.com`,
      password: 'correct horse battery',
      role: 'teacher',
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

const serviceUrl = (b: Backend, name: string) => b.app.services.find((s) => s.name === name)!.url;

describe('client address', () => {
  it('when each sign-up claims another X-Forwarded-For, then the limit still trips at its count', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNUP_LIMIT; i++) statuses.push(await signUpFrom(backend, `198.51.100.${i + 1}`));
    expect(statuses).toEqual([...Array<number>(SIGNUP_LIMIT).fill(202), 429]);
  });

  it('when the gateway trusts its proxy (TRUSTED_PROXIES=loopback), then X-Forwarded-For is the address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNUP_LIMIT; i++) statuses.push(await signUpFrom(behindProxy, `203.0.113.${i + 1}`));
    expect(statuses).toEqual(Array<number>(SIGNUP_LIMIT + 1).fill(202));
    // One address, as the proxy reports it, is limited as before.
    const same: number[] = [];
    for (let i = 0; i <= SIGNUP_LIMIT; i++) same.push(await signUpFrom(behindProxy, '203.0.113.200'));
    expect(same).toEqual([...Array<number>(SIGNUP_LIMIT).fill(202), 429]);
  });
});

describe('calls that bypass the gateway', () => {
  const FORGED = {
    'x-checkpoint-user-id': '00000000-0000-4000-8000-000000000001',
    'x-checkpoint-user-role': 'admin',
    'x-checkpoint-tenant-id': '00000000-0000-4000-8000-000000000002',
    'x-checkpoint-session-id': '00000000-0000-4000-8000-000000000003',
  };

  it('when a local process calls a service with made-up caller headers, then 401 unauthenticated_peer', async () => {
    const paths: [string, string][] = [
      ['identity', '/api/auth/user'],
      ['class', '/api/classes'],
      ['assessment', '/api/student/results'],
      ['generation', '/api/support-content/00000000-0000-4000-8000-000000000004'],
      ['analytics', '/api/admin/stats'],
    ];
    for (const [service, path] of paths) {
      const res = await fetch(serviceUrl(backend, service) + path, { headers: FORGED });
      expect(res.status, `${service} ${path}`).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'unauthenticated_peer' });
    }
  });

  it("when a local process calls identity's internal endpoints, then 401 unauthenticated_peer", async () => {
    const identity = serviceUrl(backend, 'identity');
    const revoked = await fetch(`${identity}/internal/sessions/revoked`);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ code: 'unauthenticated_peer' });
    const refresh = await fetch(`${identity}/internal/sessions/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: 'x'.repeat(43) }),
    });
    expect(refresh.status).toBe(401);
    expect(await refresh.json()).toMatchObject({ code: 'unauthenticated_peer' });
  });

  it('when the services are probed or their documents read, then they answer without a token', async () => {
    const identity = serviceUrl(backend, 'identity');
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/.well-known/jwks.json']) {
      expect((await fetch(identity + path)).status, path).toBe(200);
    }
  });
});
