// The OIDC login initiation on real Postgres: the registration is found by issuer and client id
// (an issuer such as Canvas's cloud one is shared by many districts), the browser goes to that
// registration's authorization URL with its client id, a state and a nonce (the state kept only
// as its hash, expiring); a login the tool cannot place is a 400 naming the parameter.
import { createHash } from 'node:crypto';
import { gatewayHeaders } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, platformRegistration, startIntegrationsService, TOOL_URL, type Harness } from './helpers.ts';

let h: Harness;

beforeAll(async () => {
  h = await startIntegrationsService({ LTI_STATE_TTL_SECONDS: '60' });
});
afterAll(async () => {
  await h?.stop();
});

const register = async (input: Record<string, unknown>) => {
  const res = await call(h, actor('admin'), 'POST', '/api/integrations/lti/registrations', input);
  expect(res.status).toBe(201);
  return res.body as { id: string; clientId: string; authorizationUrl: string };
};

/** A login as the browser makes it (the redirect not followed). */
async function login(params: Record<string, string>) {
  const res = await fetch(`${h.url}/api/lti/login?${new URLSearchParams(params)}`, {
    redirect: 'manual',
    headers: await gatewayHeaders('integrations', undefined, '127.0.0.1'),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : undefined };
}

describe('OIDC login initiation', () => {
  it('when two districts registered one issuer, then the client id picks the registration, and without it the login is refused', async () => {
    const shared = platformRegistration();
    const a = await register({ ...shared, clientId: 'district-a-key' });
    const b = await register({ ...platformRegistration(), issuer: shared.issuer, clientId: 'district-b-key' });
    const base = { iss: shared.issuer, login_hint: 'u1', target_link_uri: `${TOOL_URL}/api/lti/launch` };

    const res = await login({ ...base, client_id: b.clientId, lti_message_hint: 'hint-1' });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(b.authorizationUrl);
    expect(to.searchParams.get('client_id')).toBe('district-b-key');
    expect(to.searchParams.get('lti_message_hint')).toBe('hint-1');
    const state = to.searchParams.get('state')!;
    const { rows } = await h.sql.query<{ registration_id: string; ttl: number }>(
      `select registration_id, extract(epoch from expires_at - now())::int as ttl from lti_login_states where state_hash = $1`,
      [createHash('sha256').update(state).digest('base64url')],
    );
    expect(rows).toEqual([{ registration_id: b.id, ttl: expect.any(Number) }]);
    expect(rows[0]!.ttl).toBeLessThanOrEqual(60);
    expect(a.id).not.toBe(b.id);

    const ambiguous = await login(base);
    expect(ambiguous.status).toBe(400);
    expect(Object.keys(ambiguous.body.fields)).toEqual(['client_id']);
  });

  it('when the login names an unknown platform, another tool or a deployment not registered, then 400 names it', async () => {
    const reg = await register(platformRegistration());
    const base = { iss: reg.authorizationUrl.replace(/\/api\/.*/, ''), login_hint: 'u1' };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, iss: 'https://lms.nobody.example.org', target_link_uri: `${TOOL_URL}/` }, 'iss'],
      [{ ...base, client_id: 'not-registered', target_link_uri: `${TOOL_URL}/` }, 'client_id'],
      [{ ...base, target_link_uri: 'https://another-tool.example.org/launch' }, 'target_link_uri'],
      [{ ...base, target_link_uri: `${TOOL_URL}/`, lti_deployment_id: 'deployment-9' }, 'lti_deployment_id'],
      [{ iss: base.iss, target_link_uri: `${TOOL_URL}/` }, 'login_hint'],
    ];
    for (const [params, field] of cases) {
      const res = await login(params);
      expect(res.status, field).toBe(400);
      expect(Object.keys(res.body.fields), field).toEqual([field]);
    }
  });

  it('when a launch names a state nobody issued, then 400 names state', async () => {
    const res = await call(h, undefined, 'POST', '/api/lti/launch', { id_token: 'a.b.c', state: 'made-up' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'lti_state', fields: { state: expect.any(String) } });
  });
});
