// NRPS on real Postgres against the real platform package (lti1p3platform, e2e/lti/platform.py):
// the tool's client-credentials token (its JWT assertion checked by the package against the tool's
// keys; cached), the launch claim's rules, the Link paging, and the refusals of a sync that stop it
// before anyone is signed up or enrolled (a platform error on a later page, a membership URL or a
// token URL outside the egress rules, pages without end), each kept as the link's outcome. The whole
// sync with identity and class is e2e/api/lti-nrps.contract.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchesRepository } from '../src/data-access/launches.repository.ts';
import type { Peers } from '../src/data-access/peers.client.ts';
import { registrationsRepository } from '../src/data-access/registrations.repository.ts';
import { rostersRepository } from '../src/data-access/rosters.repository.ts';
import { toolKeysRepository } from '../src/data-access/tool-keys.repository.ts';
import { membershipsUrlOf, nextLink, NRPS_CLAIM, NRPS_SCOPE } from '../src/domain/nrps.ts';
import { createPlatformTokens } from '../src/domain/platform-token.ts';
import { rosterSyncUseCases } from '../src/domain/roster-sync.use-case.ts';
import { toolKeyRing } from '../src/domain/tool-keys.ts';
// The test platform is the e2e one: the real package (lti1p3platform).
import { setRoster, setToolJwks, startPlatform, type RunningPlatform } from '../../../e2e/lti/platform.ts';
import { actor, call, startIntegrationsService, TOOL_URL, type Harness } from './helpers.ts';

let h: Harness;
let platform: RunningPlatform;
const tenantId = randomUUID();
let registrationId: string;

beforeAll(async () => {
  [h, platform] = await Promise.all([startIntegrationsService(), startPlatform(TOOL_URL)]);
  // The tool's public keys pasted into the platform (the tool's origin is not reachable here).
  const jwks = await call(h, undefined, 'GET', '/api/lti/jwks');
  await setToolJwks(platform.info, jwks.body);
  const { issuer, clientId, deploymentId, jwksUrl, authorizationUrl, tokenUrl } = platform.info;
  const reg = await call(h, actor('admin', tenantId), 'POST', '/api/integrations/lti/registrations', {
    issuer,
    clientId,
    deploymentIds: [deploymentId],
    jwksUrl,
    authorizationUrl,
    tokenUrl,
  });
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  registrationId = reg.body.id;
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  await h?.stop();
});

const keys = () => toolKeyRing(toolKeysRepository(h.sql));

describe('the platform’s access token', () => {
  it('when the tool asks with its signed assertion, then the package grants the scope; the token is kept until shortly before it expires', async () => {
    let signed = 0;
    let clock = Date.now();
    const ring = keys();
    const tokens = createPlatformTokens({
      signingKey: () => (signed++, ring.signingKey()),
      allowLoopback: true,
      timeoutMs: 5_000,
      now: () => clock,
    });
    const reg = (await registrationsRepository(h.sql).byId(registrationId))!;
    const token = await tokens.accessToken(reg, [NRPS_SCOPE]);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: platform.info.issuer, sub: platform.info.clientId, scopes: NRPS_SCOPE });
    expect(await tokens.accessToken(reg, [NRPS_SCOPE, NRPS_SCOPE])).toBe(token);
    expect(signed).toBe(1);
    clock += 3_600_000;
    await tokens.accessToken(reg, [NRPS_SCOPE]);
    expect(signed).toBe(2);
  });

  it('when the platform does not know the tool’s key, or the token URL is outside the egress rules, then a clear refusal naming tokenUrl', async () => {
    const reg = (await registrationsRepository(h.sql).byId(registrationId))!;
    const foreign = createPlatformTokens({
      signingKey: async () => (await import('../src/domain/tool-keys.ts')).generateToolKey(),
      allowLoopback: true,
      timeoutMs: 5_000,
    });
    await expect(foreign.accessToken(reg, [NRPS_SCOPE])).rejects.toMatchObject({
      code: 'lti_platform_token',
      status: 503,
      fields: { tokenUrl: expect.stringContaining('400') },
    });
    const tokens = createPlatformTokens({
      signingKey: () => keys().signingKey(),
      allowLoopback: true,
      timeoutMs: 5_000,
    });
    await expect(
      tokens.accessToken({ ...reg, tokenUrl: 'https://10.1.2.3/token' }, [NRPS_SCOPE]),
    ).rejects.toMatchObject({ code: 'lti_platform_token', fields: { tokenUrl: expect.stringContaining('private') } });
  });
});

describe('the launch’s claim and the paging', () => {
  it('keeps a 2.0 membership URL within the egress rules, nothing else', () => {
    const claim = (url: unknown, versions: unknown = ['2.0']) => ({
      [NRPS_CLAIM]: { context_memberships_url: url, service_versions: versions },
    });
    expect(membershipsUrlOf(claim('https://lms.example.org/api/nrps/1'), false)).toBe(
      'https://lms.example.org/api/nrps/1',
    );
    expect(membershipsUrlOf(claim('https://lms.example.org/a', ['1.0']), false)).toBeUndefined();
    expect(membershipsUrlOf(claim('http://lms.example.org/a'), false)).toBeUndefined();
    expect(membershipsUrlOf(claim('https://192.168.1.4/a'), false)).toBeUndefined();
    expect(membershipsUrlOf(claim('http://127.0.0.1:9/a'), false)).toBeUndefined();
    expect(membershipsUrlOf(claim('http://127.0.0.1:9/a'), true)).toBe('http://127.0.0.1:9/a');
    expect(membershipsUrlOf(claim(42), true)).toBeUndefined();
    expect(membershipsUrlOf({}, true)).toBeUndefined();
  });

  it('follows rel="next" only', () => {
    expect(nextLink('<https://l/p2>; rel="next"')).toBe('https://l/p2');
    expect(nextLink('<https://l/p1>; rel="first", <https://l/p3>; rel="next"')).toBe('https://l/p3');
    expect(nextLink('<https://l/x>; rel="differences"')).toBeUndefined();
    expect(nextLink(['<https://l/a>; rel="prev"', '<https://l/b>; rel=next'])).toBe('https://l/b');
    expect(nextLink(undefined)).toBeUndefined();
  });
});

describe('a sync refused before anyone is written', () => {
  /** Identity and class must not be called: a refusal comes before any member is written. */
  const untouched: Peers = new Proxy({} as Peers, {
    get: (_t, name) => () => Promise.reject(new Error(`${String(name)} must not be called`)),
  });
  const uc = () =>
    rosterSyncUseCases({
      rosters: rostersRepository(h.sql),
      registrations: registrationsRepository(h.sql),
      peers: untouched,
      tokens: createPlatformTokens({ signingKey: () => keys().signingKey(), allowLoopback: true, timeoutMs: 5_000 }),
      allowLoopback: true,
      timeoutMs: 5_000,
    });
  async function linked(context: string) {
    await launchesRepository(h.sql).linkOrCreate(
      { registrationId, contextId: context, tenantId, contextTitle: context },
      async () => randomUUID(),
    );
  }
  const outcome = async (context: string) => (await rostersRepository(h.sql).byContext(registrationId, context))!;
  const learner = (id: string) => ({
    user_id: id,
    roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
  });

  it('when the platform fails on page 3 of 3, then no one is signed up and the outcome names the platform’s error', async () => {
    const context = `c-${randomUUID()}`;
    await linked(context);
    await setRoster(platform.info, context, {
      pageSize: 1,
      failPage: 3,
      members: [learner('a'), learner('b'), learner('c')],
    });
    await uc().syncInBackground(registrationId, context, `${platform.info.url}/contexts/${context}/memberships`);
    const link = await outcome(context);
    expect(link.membershipsUrl).toBe(`${platform.info.url}/contexts/${context}/memberships`);
    expect(link.rosterSyncOutcome).toEqual({ ok: false, added: 0, kept: 0, skipped: 0, error: 'lti_platform_error' });
  });

  it('when the next page is on another host, then it is not followed (the token stays with the platform)', async () => {
    const context = `c-${randomUUID()}`;
    await linked(context);
    await setRoster(platform.info, context, { pageSize: 1, foreignNext: true, members: [learner('a'), learner('b')] });
    await uc().syncInBackground(registrationId, context, `${platform.info.url}/contexts/${context}/memberships`);
    expect((await outcome(context)).rosterSyncOutcome).toMatchObject({ ok: false, error: 'lti_platform_error' });
  });

  it('when the stored membership URL is outside the egress rules, then the sync is refused (422) without calling it', async () => {
    const context = `c-${randomUUID()}`;
    await linked(context);
    await uc().syncInBackground(registrationId, context, 'https://10.9.8.7/memberships');
    expect((await outcome(context)).rosterSyncOutcome).toMatchObject({
      ok: false,
      error: 'lti_memberships_url_refused',
    });
  });

  it('when an unknown course is asked for, then the platform’s 404 is the refusal', async () => {
    const context = `c-${randomUUID()}`;
    await linked(context);
    await uc().syncInBackground(registrationId, context, `${platform.info.url}/contexts/nobody/memberships`);
    expect((await outcome(context)).rosterSyncOutcome).toMatchObject({ ok: false, error: 'lti_platform_error' });
  });

  it('when every page is read and the learners are listed, then identity is the first peer asked (after all pages)', async () => {
    const context = `c-${randomUUID()}`;
    await linked(context);
    await setRoster(platform.info, context, { pageSize: 2, members: [learner('a'), learner('b'), learner('c')] });
    await uc().syncInBackground(registrationId, context, `${platform.info.url}/contexts/${context}/memberships`);
    // The proxy refused the first sign-in: the outcome is that error, with nothing counted.
    expect((await outcome(context)).rosterSyncOutcome).toEqual({
      ok: false,
      added: 0,
      kept: 0,
      skipped: 0,
      error: 'internal',
    });
  });

  it('when the course was synced well a moment ago, then a launch’s background sync does not read it again', async () => {
    const context = `c-${randomUUID()}`;
    await linked(context);
    await setRoster(platform.info, context, { members: [learner('a')] });
    const ok = { ok: true, added: 1, kept: 0, skipped: 0 };
    await rostersRepository(h.sql).recordSync(registrationId, context, ok);
    await uc().syncInBackground(registrationId, context, `${platform.info.url}/contexts/${context}/memberships`);
    expect((await outcome(context)).rosterSyncOutcome).toEqual(ok);
    // Five minutes later it is read again (and here reaches identity, which this test refuses).
    await h.sql.query(
      `update lti_context_links set roster_synced_at = now() - interval '6 minutes' where context_id = $1`,
      [context],
    );
    await uc().syncInBackground(registrationId, context, `${platform.info.url}/contexts/${context}/memberships`);
    expect((await outcome(context)).rosterSyncOutcome).toMatchObject({ ok: false });
  });
});
