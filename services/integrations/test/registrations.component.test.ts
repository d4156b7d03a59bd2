// A district admin's LTI platform registrations and the tool's keys, on real Postgres: the admin
// registers, reads, changes and removes their district's platforms; every URL is checked (https,
// no internal address) with a 400 naming the field; another district's admin never sees them; the
// tool publishes one public key, the same on every call and from every replica.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, platformRegistration, startIntegrationsService, type Harness } from './helpers.ts';

let h: Harness;
const BASE = '/api/integrations/lti/registrations';

beforeAll(async () => {
  h = await startIntegrationsService({ LTI_ALLOW_LOOPBACK: 'false' });
});
afterAll(async () => {
  await h?.stop();
});

describe('LTI platform registrations by hand', () => {
  it('when a district admin registers a platform, then they read, change and remove it', async () => {
    const admin = actor('admin');
    const input = platformRegistration({ deploymentIds: ['1', '2'] });
    const created = await call(h, admin, 'POST', BASE, input);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...input, id: expect.any(String) });

    const list = await call(h, admin, 'GET', BASE);
    expect(list.status).toBe(200);
    expect(list.body.registrations).toEqual([created.body]);
    expect(list.body.tool).toEqual({
      loginUrl: 'https://checkpoint.test/api/lti/login',
      launchUrl: 'https://checkpoint.test/api/lti/launch',
      jwksUrl: 'https://checkpoint.test/api/lti/jwks',
    });

    const changed = await call(h, admin, 'PUT', `${BASE}/${created.body.id}`, { ...input, deploymentIds: ['3'] });
    expect(changed.status).toBe(200);
    expect(changed.body.deploymentIds).toEqual(['3']);
    expect((await call(h, admin, 'GET', `${BASE}/${created.body.id}`)).body.deploymentIds).toEqual(['3']);

    expect((await call(h, admin, 'DELETE', `${BASE}/${created.body.id}`)).status).toBe(204);
    expect((await call(h, admin, 'GET', `${BASE}/${created.body.id}`)).status).toBe(404);
    expect((await call(h, admin, 'DELETE', `${BASE}/${created.body.id}`)).status).toBe(404);
  });

  it("when another district's admin asks for a registration, then it does not exist for them", async () => {
    const a = actor('admin');
    const b = actor('admin');
    const input = platformRegistration();
    const created = (await call(h, a, 'POST', BASE, input)).body;
    expect((await call(h, b, 'GET', BASE)).body.registrations).toEqual([]);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', input],
      ['DELETE', undefined],
    ] as const)
      expect((await call(h, b, method, `${BASE}/${created.id}`, body)).status).toBe(404);
    expect((await call(h, a, 'GET', `${BASE}/${created.id}`)).body).toEqual(created);
  });

  it('when a teacher or a student calls, then 403; signed out, 401', async () => {
    const tenant = randomUUID();
    for (const role of ['teacher', 'student'] as const) {
      expect((await call(h, actor(role, tenant), 'GET', BASE)).status).toBe(403);
      expect((await call(h, actor(role, tenant), 'POST', BASE, platformRegistration())).status).toBe(403);
    }
    expect((await call(h, undefined, 'GET', BASE)).status).toBe(401);
  });

  it('when a URL is plain http, internal or not a URL, then 400 names the field', async () => {
    const admin = actor('admin');
    for (const [field, value] of [
      ['issuer', 'http://lms.example.org'],
      ['jwksUrl', 'https://10.1.2.3/jwks'],
      ['authorizationUrl', 'not a url'],
      ['tokenUrl', 'http://127.0.0.1:9/token'],
    ] as const) {
      const res = await call(h, admin, 'POST', BASE, platformRegistration({ [field]: value }));
      expect(res.status, field).toBe(400);
      expect(Object.keys(res.body.fields), field).toEqual([field]);
    }
    const missing = await call(h, admin, 'POST', BASE, { ...platformRegistration(), clientId: undefined });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.fields)).toEqual(['clientId']);
    const noDeployment = await call(h, admin, 'POST', BASE, platformRegistration({ deploymentIds: [] }));
    expect(Object.keys(noDeployment.body.fields)).toEqual(['deploymentIds']);
    const twice = await call(h, admin, 'POST', BASE, platformRegistration({ deploymentIds: ['1', '1'] }));
    expect(Object.keys(twice.body.fields)).toEqual(['deploymentIds']);
    expect((await call(h, admin, 'GET', BASE)).body.registrations).toEqual([]);
  });

  it('when the issuer and client id are registered already (by any district), then 409 names clientId', async () => {
    const input = platformRegistration();
    expect((await call(h, actor('admin'), 'POST', BASE, input)).status).toBe(201);
    const again = await call(h, actor('admin'), 'POST', BASE, input);
    expect(again.status).toBe(409);
    expect(Object.keys(again.body.fields)).toEqual(['clientId']);
    // A change onto another registration's issuer and client id too.
    const admin = actor('admin');
    const other = (await call(h, admin, 'POST', BASE, platformRegistration())).body;
    expect((await call(h, admin, 'PUT', `${BASE}/${other.id}`, input)).status).toBe(409);
  });
});

describe("the tool's keys", () => {
  it('when the JWKS is read, then it holds one public RSA key with its kid, the same on every call', async () => {
    const first = await call(h, undefined, 'GET', '/api/lti/jwks');
    expect(first.status).toBe(200);
    expect(first.body.keys).toHaveLength(1);
    const [key] = first.body.keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
    for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    expect((await call(h, undefined, 'GET', '/api/lti/jwks')).body).toEqual(first.body);
    const { rows } = await h.sql.query('select kid from tool_keys where retired_at is null');
    expect(rows).toEqual([{ kid: key.kid }]);
  });

  it('when a key is rotated, then the new one and the retired one are both published', async () => {
    const before = (await call(h, undefined, 'GET', '/api/lti/jwks')).body.keys[0];
    const { generateToolKey } = await import('../src/domain/tool-keys.ts');
    const next = await generateToolKey();
    await h.sql.query('update tool_keys set retired_at = now()');
    await h.sql.query(
      'insert into tool_keys (kid, algorithm, private_jwk, public_jwk) values ($1, $2, $3::jsonb, $4::jsonb)',
      [next.kid, next.algorithm, JSON.stringify(next.privateJwk), JSON.stringify(next.publicJwk)],
    );
    const { toolKeyRing } = await import('../src/domain/tool-keys.ts');
    const { toolKeysRepository } = await import('../src/data-access/tool-keys.repository.ts');
    const kids = (await toolKeyRing(toolKeysRepository(h.sql)).jwks()).keys.map((k) => k.kid);
    expect(kids).toEqual([next.kid, before.kid]);
  });
});
