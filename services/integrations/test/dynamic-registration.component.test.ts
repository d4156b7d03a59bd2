// LTI Dynamic Registration on real Postgres, against a loopback platform that serves only what
// the spec's platform side needs (its OpenID configuration and its registration endpoint, as the
// spec's examples show): the PyPI package lti1p3platform, which the launch tests use, has no
// dynamic registration. A district admin makes a one-time link; the platform opens it; the tool
// reads the configuration, posts its registration with the platform's token, stores what came
// back for the link's district and tells the platform to close; the link is used once, expires,
// and every refusal names what failed and stores nothing.
import { gatewayHeaders } from '@checkpoint/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { actor, call, startIntegrationsService, TOOL_URL, type Harness } from './helpers.ts';
import {
  lastClientId,
  lastDeploymentId,
  platformParams as paramsOf,
  startPlatform,
  TOKEN,
  TOOL_CONFIG,
  type LoopbackPlatform,
} from './loopback-platform.ts';

let h: Harness;
let platform: LoopbackPlatform;

beforeAll(async () => {
  h = await startIntegrationsService();
  platform = await startPlatform();
});
afterAll(async () => {
  await new Promise((resolve) => platform?.server.close(resolve));
  await h?.stop();
});
beforeEach(() => {
  platform.config = {};
  platform.registrations = [];
  platform.answer = startPlatformAnswer;
});
let startPlatformAnswer: LoopbackPlatform['answer'];
beforeAll(() => {
  startPlatformAnswer = platform.answer;
});

const LINKS = '/api/integrations/lti/registration-links';

async function newLink(admin = actor('admin')) {
  const res = await call(h, admin, 'POST', LINKS);
  expect(res.status).toBe(201);
  return { admin, url: new URL(res.body.url as string), expiresAt: res.body.expiresAt as string };
}

/** The platform opening the link, as its admin's browser does (Accept: html) or as a script (json). */
async function openLink(link: URL, params: Record<string, string>, accept = 'text/html') {
  const url = new URL(`${h.url}${link.pathname}${link.search}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, {
    headers: { ...(await gatewayHeaders('integrations', undefined, '127.0.0.1')), accept },
  });
  const text = await res.text();
  return {
    status: res.status,
    csp: res.headers.get('content-security-policy') ?? '',
    text,
    body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

const platformParams = () => paramsOf(platform);

async function registrationsOf(admin: ReturnType<typeof actor>) {
  return (await call(h, admin, 'GET', '/api/integrations/lti/registrations')).body.registrations as Record<
    string,
    unknown
  >[];
}

describe('LTI Dynamic Registration', () => {
  it('when a district admin makes a link, then it is a one-time URL under the public origin with an expiry; teachers may not', async () => {
    const { url, expiresAt } = await newLink();
    expect(`${url.origin}${url.pathname}`).toBe(`${TOOL_URL}/api/lti/register`);
    expect(url.searchParams.get('rt')).toMatch(/^[\w-]{43}$/);
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const { rows } = await h.sql.query('select token_hash from lti_registration_links where token_hash = $1', [
      url.searchParams.get('rt'),
    ]);
    expect(rows).toEqual([]);
    expect((await call(h, actor('teacher'), 'POST', LINKS)).status).toBe(403);
    expect((await call(h, undefined, 'POST', LINKS)).status).toBe(401);
  });

  it('when the platform opens the link, then the tool registers with it, stores the registration for that district and asks to close', async () => {
    const { admin, url } = await newLink();
    const other = actor('admin');
    const res = await openLink(url, platformParams());
    expect(res.status).toBe(200);
    expect(res.text).toContain("postMessage({ subject: 'org.imsglobal.lti.close' }, '*')");
    expect(res.text).toContain('window.opener || window.parent');
    expect(res.csp).toContain(`frame-ancestors https: ${platform.origin}`);
    expect(res.csp).toMatch(/script-src 'sha256-[\w+/=]+'/);

    expect(platform.registrations).toHaveLength(1);
    const sent = platform.registrations[0]!;
    expect(sent.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent.body).toMatchObject({
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: ['implicit', 'client_credentials'],
      initiate_login_uri: `${TOOL_URL}/api/lti/login`,
      redirect_uris: [`${TOOL_URL}/api/lti/launch`],
      jwks_uri: `${TOOL_URL}/api/lti/jwks`,
      token_endpoint_auth_method: 'private_key_jwt',
      [TOOL_CONFIG]: {
        domain: 'checkpoint.test',
        target_link_uri: `${TOOL_URL}/api/lti/launch`,
        claims: expect.arrayContaining(['iss', 'sub', 'email']),
        messages: [
          expect.objectContaining({ type: 'LtiResourceLinkRequest' }),
          expect.objectContaining({ type: 'LtiDeepLinkingRequest' }),
        ],
      },
    });
    const scopes = String(sent.body.scope).split(' ');
    expect(scopes).toContain('https://purl.imsglobal.org/spec/lti-ags/scope/score');
    expect(scopes).toContain('https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly');

    expect(await registrationsOf(admin)).toEqual([
      expect.objectContaining({
        issuer: platform.origin,
        clientId: lastClientId(),
        deploymentIds: [lastDeploymentId()],
        jwksUrl: `${platform.origin}/jwks.json`,
        authorizationUrl: `${platform.origin}/connect/authorize`,
        tokenUrl: `${platform.origin}/connect/token`,
      }),
    ]);
    expect(await registrationsOf(other)).toEqual([]);

    // Used once: the second call is refused before the platform is called again.
    const again = await openLink(url, platformParams(), 'application/json');
    expect(again.status).toBe(400);
    expect(Object.keys(again.body.fields)).toEqual(['rt']);
    expect(platform.registrations).toHaveLength(1);
  });

  it('when the issuer is not on the configuration URL origin, then nothing is registered and the link stays usable', async () => {
    const { admin, url } = await newLink();
    platform.config = { issuer: 'https://lms.example.org' };
    const res = await openLink(url, platformParams());
    expect(res.status).toBe(400);
    expect(res.text).toContain('issuer');
    expect(res.text).toContain('Nothing was stored');
    expect(res.text).not.toContain('<script');
    expect(platform.registrations).toHaveLength(0);
    expect(await registrationsOf(admin)).toEqual([]);

    platform.config = {};
    expect((await openLink(url, platformParams())).status).toBe(200);
    expect(await registrationsOf(admin)).toHaveLength(1);
  });

  it('when the configuration lacks a registration endpoint, or the platform refuses the token or names no client, then 400 naming it and nothing stored', async () => {
    const { admin, url } = await newLink();
    platform.config = { registration_endpoint: undefined };
    const missing = await openLink(url, platformParams(), 'application/json');
    expect(missing.status).toBe(400);
    expect(missing.body.fields.openid_configuration).toMatch(/registration_endpoint/);

    platform.config = {};
    const refused = await openLink(url, { ...platformParams(), registration_token: 'wrong' }, 'application/json');
    expect(refused.status).toBe(400);
    expect(refused.body.fields.registration_endpoint).toMatch(/401/);

    platform.answer = () => ({ status: 200, body: { registered: true } });
    const noClient = await openLink(url, platformParams(), 'application/json');
    expect(noClient.status).toBe(400);
    expect(noClient.body.fields.registration_endpoint).toMatch(/client_id/);
    expect(await registrationsOf(admin)).toEqual([]);
  });

  it('when the platform names no deployment, then the registration is stored with none and the page says what to add', async () => {
    const { admin, url } = await newLink();
    platform.answer = (body) => ({ status: 200, body: { ...body, client_id: `no-deployment-${Date.now()}` } });
    const res = await openLink(url, platformParams());
    expect(res.status).toBe(200);
    expect(res.text).toContain('named no deployment yet');
    expect(await registrationsOf(admin)).toEqual([expect.objectContaining({ deploymentIds: [] })]);
  });

  it('when the configuration URL is on a private network or not https, then it is not called', async () => {
    const { url } = await newLink();
    for (const address of ['http://10.0.0.7/.well-known/openid-configuration', 'ftp://lms.example.org/config']) {
      const res = await openLink(url, { openid_configuration: address }, 'application/json');
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fields)).toEqual(['openid_configuration']);
    }
  });

  it('when the link is unknown or expired, or its parameters are missing, then 400 naming what is wrong', async () => {
    const { url } = await newLink();
    await h.sql.query(`update lti_registration_links set expires_at = now() - interval '1 second'`);
    const expired = await openLink(url, platformParams());
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('unknown, used or expired');
    const unknown = await openLink(
      new URL(`${TOOL_URL}/api/lti/register?rt=nope`),
      platformParams(),
      'application/json',
    );
    expect(Object.keys(unknown.body.fields)).toEqual(['rt']);
    const bare = await openLink(new URL(`${TOOL_URL}/api/lti/register`), {}, 'application/json');
    expect(bare.status).toBe(400);
    expect(Object.keys(bare.body.fields).sort()).toEqual(['openid_configuration', 'rt']);
    expect(platform.registrations).toHaveLength(0);
  });

  it('when the platform registers a client id another district holds, then 409 and the link is not used', async () => {
    const first = await newLink();
    expect((await openLink(first.url, platformParams())).status).toBe(200);
    const taken = lastClientId();
    const second = await newLink();
    platform.answer = (body) => ({
      status: 200,
      body: { ...body, client_id: taken, [TOOL_CONFIG]: { deployment_id: 'd' } },
    });
    const res = await openLink(second.url, platformParams(), 'application/json');
    expect(res.status).toBe(409);
    expect(Object.keys(res.body.fields)).toEqual(['clientId']);
    expect(await registrationsOf(second.admin)).toEqual([]);
    const { rows } = await h.sql.query('select 1 from lti_registration_links where tenant_id = $1', [
      second.admin.tenantId,
    ]);
    expect(rows).toHaveLength(1);
  });
});
