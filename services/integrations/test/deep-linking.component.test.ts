// LTI Deep Linking 2.0 on real Postgres (docs/adr/014-lti.md, "Deep linking"): the checks of a
// deep-linking request (its settings, a teacher only, the state used once), the assessments the
// tool learns from the assessment service's events, the pending request kept server-side (its
// teacher's only, used once, expiring), the teacher's pick (their own assessments only) and the
// LtiDeepLinkingResponse signed with the tool's current key, verified here with jose against the
// tool's JWKS. Signing in (identity) and the course's class (class) are not configured here (a
// verified teacher launch is 503 `lti_sign_in_unavailable`): the whole flow through identity,
// class and the real platform package is e2e/api/lti-deep-linking.contract.test.ts.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AssessmentCreatedSchema,
  AssessmentDeletedSchema,
  AssessmentUpdatedSchema,
  QuestionsChangedSchema,
} from '@checkpoint/events';
import { eventMessage, gatewayHeaders } from '@checkpoint/testkit';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepLinksRepository } from '../src/data-access/deep-links.repository.ts';
import { registrationsRepository } from '../src/data-access/registrations.repository.ts';
import { toolKeysRepository } from '../src/data-access/tool-keys.repository.ts';
import { deepLinkingUseCases } from '../src/domain/deep-linking.use-case.ts';
import { toolKeyRing } from '../src/domain/tool-keys.ts';
import { integrationsPrivacy } from '../src/messaging/privacy.consumer.ts';
import { sqlExecutor } from '@checkpoint/events';
import {
  actor,
  call,
  platformRegistration,
  startIntegrationsService,
  TOOL_URL,
  type Actor,
  type Harness,
} from './helpers.ts';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/';
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim/';

let h: Harness;
let jwksServer: Server;
let platformKey: CryptoKey;
let jwksUrl: string;

beforeAll(async () => {
  h = await startIntegrationsService();
  const pair = await generateKeyPair('RS256');
  platformKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'platform-1', alg: 'RS256', use: 'sig' };
  // The platform's JWKS (the launch's signature is checked against it).
  jwksServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
});
afterAll(async () => {
  await new Promise((r) => jwksServer?.close(r));
  await h?.stop();
});

async function register(tenant = randomUUID()) {
  const res = await call(h, actor('admin', tenant), 'POST', '/api/integrations/lti/registrations', {
    ...platformRegistration(),
    jwksUrl,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; issuer: string; clientId: string };
}

type Reg = Awaited<ReturnType<typeof register>>;

/** Login, then the platform's signed deep-linking request (claims overridable), posted to the launch. */
async function deepLinkLaunch(reg: Reg, claims: Record<string, unknown> = {}) {
  const login = await fetch(
    `${h.url}/api/lti/login?${new URLSearchParams({ iss: reg.issuer, client_id: reg.clientId, login_hint: 'u1', target_link_uri: `${TOOL_URL}/api/lti/launch` })}`,
    { redirect: 'manual', headers: await gatewayHeaders('integrations', undefined, '127.0.0.1') },
  );
  expect(login.status).toBe(302);
  const auth = new URL(login.headers.get('location')!);
  const state = auth.searchParams.get('state')!;
  const idToken = await new SignJWT({
    nonce: auth.searchParams.get('nonce'),
    sub: 'lms-teacher-1',
    name: 'Tess Teacher',
    [`${CLAIM}message_type`]: 'LtiDeepLinkingRequest',
    [`${CLAIM}version`]: '1.3.0',
    [`${CLAIM}deployment_id`]: 'deployment-1',
    [`${CLAIM}roles`]: [`${LIS}membership#Instructor`],
    [`${CLAIM}context`]: { id: 'course-1', title: 'Physics' },
    [`${DL}deep_linking_settings`]: {
      deep_link_return_url: 'https://lms.example.org/deep_links',
      accept_types: ['ltiResourceLink'],
      accept_presentation_document_targets: ['iframe', 'window'],
      data: 'opaque-platform-data',
    },
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'platform-1' })
    .setIssuer(reg.issuer)
    .setAudience(reg.clientId)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(platformKey);
  const post = async () => {
    const res = await fetch(`${h.url}/api/lti/launch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        ...(await gatewayHeaders('integrations', undefined, '127.0.0.1')),
      },
      body: new URLSearchParams({ id_token: idToken, state }).toString(),
    });
    return { status: res.status, body: (await res.json()) as { code: string; fields?: Record<string, string> } };
  };
  return { first: await post(), again: post };
}

/** The assessment service's events of an assessment of `teacher` in `classId` with questions worth `points`. */
async function assessmentOf(teacher: Actor, classId: string, title: string, points: number[]) {
  const assessmentId = randomUUID();
  const envelope = { key: assessmentId, tenantId: teacher.tenantId };
  await h.bus.publish([
    eventMessage(
      AssessmentCreatedSchema,
      { assessmentId, tenantId: teacher.tenantId, classId, teacherId: teacher.userId, title, isActive: true },
      envelope,
    ),
    eventMessage(
      QuestionsChangedSchema,
      {
        assessmentId,
        tenantId: teacher.tenantId,
        classId,
        questions: points.map((p) => ({ questionId: randomUUID(), questionText: 'Q?', points: p })),
      },
      envelope,
    ),
  ]);
  return assessmentId;
}

describe('a deep-linking request', () => {
  it('needs deep_linking_settings with an https return URL and ltiResourceLink among the accepted types', async () => {
    const reg = await register();
    const none = await deepLinkLaunch(reg, { [`${DL}deep_linking_settings`]: undefined });
    expect(none.first.status).toBe(400);
    expect(none.first.body).toMatchObject({
      code: 'lti_deep_linking_settings',
      fields: { deep_linking_settings: expect.any(String) },
    });
    const types = await deepLinkLaunch(reg, {
      [`${DL}deep_linking_settings`]: {
        deep_link_return_url: 'https://lms.example.org/dl',
        accept_types: ['file', 'html'],
      },
    });
    expect(types.first.status).toBe(400);
    expect(types.first.body.fields?.deep_linking_settings).toMatch(/ltiResourceLink/);
    const url = await deepLinkLaunch(reg, {
      [`${DL}deep_linking_settings`]: {
        deep_link_return_url: 'javascript:alert(1)',
        accept_types: ['ltiResourceLink'],
      },
    });
    expect(url.first.status).toBe(400);
    expect(url.first.body.fields?.deep_linking_settings).toMatch(/deep_link_return_url/);
  });

  it('is refused to a learner (403 naming roles), before anyone is signed in', async () => {
    const reg = await register();
    const learner = await deepLinkLaunch(reg, { [`${CLAIM}roles`]: [`${LIS}membership#Learner`] });
    expect(learner.first.status).toBe(403);
    expect(learner.first.body).toMatchObject({ code: 'lti_deep_linking_role', fields: { roles: expect.any(String) } });
    expect(
      (await h.sql.query('select count(*)::int as n from lti_deep_link_requests where registration_id = $1', [reg.id]))
        .rows[0],
    ).toEqual({ n: 0 });
  });

  it('of an instructor is verified and recorded; its state is used once (a replay is 400 naming state)', async () => {
    const reg = await register();
    const launch = await deepLinkLaunch(reg);
    // Verified: it goes on to sign the teacher in, which identity does (not configured here).
    expect(launch.first).toMatchObject({ status: 503, body: { code: 'lti_sign_in_unavailable' } });
    const { rows } = await h.sql.query(
      'select message_type, resource_link_id from lti_launches where registration_id = $1',
      [reg.id],
    );
    expect(rows).toEqual([{ message_type: 'LtiDeepLinkingRequest', resource_link_id: null }]);
    const replay = await launch.again();
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ code: 'lti_state', fields: { state: expect.any(String) } });
  });
});

describe('the teacher’s pick and the signed response', () => {
  const uc = () =>
    deepLinkingUseCases(
      deepLinksRepository(h.sql),
      registrationsRepository(h.sql),
      toolKeyRing(toolKeysRepository(h.sql)),
      {
        publicUrl: TOOL_URL,
        requestTtlSeconds: 600,
        responseTtlSeconds: 300,
      },
    );

  /** What the launch keeps for a signed-in teacher (as the route does after sign-in). */
  async function pending(
    reg: Reg,
    teacher: Actor,
    classId: string | null,
    data: string | null = JSON.stringify('opaque-platform-data'),
  ) {
    return uc().keep({
      tenantId: teacher.tenantId,
      registrationId: reg.id,
      userId: teacher.userId,
      classId,
      deploymentId: 'deployment-1',
      returnUrl: 'https://lms.example.org/deep_links?course=1',
      data,
    });
  }

  it('lists the teacher’s own assessments (the linked class’s first), learnt from the assessment events', async () => {
    const tenant = randomUUID();
    const reg = await register(tenant);
    const teacher = actor('teacher', tenant);
    const linked = randomUUID();
    const other = await assessmentOf(teacher, randomUUID(), 'A quiz of another class', [1]);
    const mine = await assessmentOf(teacher, linked, 'Zeta quiz', [2, 3]);
    const colleague = actor('teacher', tenant);
    await assessmentOf(colleague, linked, 'The colleague’s quiz', [1]);
    const id = await pending(reg, teacher, linked);
    const res = await call(h, teacher, 'GET', `/api/lti/deep-linking/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      classId: linked,
      platform: reg.issuer,
      assessments: [
        { id: mine, title: 'Zeta quiz', totalPoints: 5, inLinkedClass: true },
        { id: other, title: 'A quiz of another class', totalPoints: 1, inLinkedClass: false },
      ],
    });
    // Renamed, then deleted: the list follows the events.
    await h.bus.publish([
      eventMessage(
        AssessmentUpdatedSchema,
        { assessmentId: other, tenantId: tenant, classId: randomUUID(), title: 'Renamed' },
        { key: other, tenantId: tenant },
      ),
      eventMessage(
        AssessmentDeletedSchema,
        { assessmentId: mine, tenantId: tenant, classId: linked },
        { key: mine, tenantId: tenant },
      ),
    ]);
    const after = await call(h, teacher, 'GET', `/api/lti/deep-linking/${id}`);
    expect(after.body.assessments).toEqual([{ id: other, title: 'Renamed', totalPoints: 1, inLinkedClass: false }]);
  });

  it('signs the LtiDeepLinkingResponse with the tool’s current key (verified against its JWKS) and posts it once', async () => {
    const tenant = randomUUID();
    const reg = await register(tenant);
    const teacher = actor('teacher', tenant);
    const classId = randomUUID();
    const assessmentId = await assessmentOf(teacher, classId, 'Forces & motion', [2, 2.5, 1]);
    const id = await pending(reg, teacher, classId);
    const picked = await call(h, teacher, 'POST', `/api/lti/deep-linking/${id}/response`, { assessmentId });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body).toEqual({ formUrl: `/api/lti/deep-linking/${id}/form` });
    // Answered: the request cannot be picked again.
    expect((await call(h, teacher, 'POST', `/api/lti/deep-linking/${id}/response`, { assessmentId })).status).toBe(404);

    const form = async (who: Actor) =>
      fetch(`${h.url}/api/lti/deep-linking/${id}/form`, {
        headers: { accept: 'text/html', ...(await gatewayHeaders('integrations', who, '127.0.0.1')) },
      });
    // Another teacher of the district never gets it.
    expect((await form(actor('teacher', tenant))).status).toBe(404);
    const page = await form(teacher);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/form-action https:\/\/lms\.example\.org;/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
    const html = await page.text();
    expect(html).toContain('action="https://lms.example.org/deep_links?course=1"');
    const jwt = /name="JWT" value="([^"]+)"/.exec(html)![1]!;
    // Once only.
    expect((await form(teacher)).status).toBe(404);

    const jwks = (await call(h, undefined, 'GET', '/api/lti/jwks')).body as { keys: { kid: string }[] };
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(jwks as never), {
      issuer: reg.clientId,
      audience: reg.issuer,
      algorithms: ['RS256'],
    });
    expect(protectedHeader.kid).toBe(jwks.keys[0]!.kid);
    expect(typeof payload.nonce).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(payload).toMatchObject({
      [`${CLAIM}deployment_id`]: 'deployment-1',
      [`${CLAIM}message_type`]: 'LtiDeepLinkingResponse',
      [`${CLAIM}version`]: '1.3.0',
      [`${DL}data`]: 'opaque-platform-data',
      [`${DL}content_items`]: [
        {
          type: 'ltiResourceLink',
          title: 'Forces & motion',
          url: `${TOOL_URL}/api/lti/launch`,
          custom: { checkpoint_assessment_id: assessmentId },
          lineItem: { scoreMaximum: 5.5, label: 'Forces & motion', resourceId: assessmentId },
        },
      ],
    });
  });

  it('after a key rotation, signs with the new key (its kid in the header)', async () => {
    const tenant = randomUUID();
    const reg = await register(tenant);
    const teacher = actor('teacher', tenant);
    const assessmentId = await assessmentOf(teacher, randomUUID(), 'Rotated', [1]);
    await toolKeyRing(toolKeysRepository(h.sql)).jwks();
    await h.sql.query('update tool_keys set retired_at = now() where retired_at is null');
    const id = await pending(reg, teacher, null, null);
    expect((await call(h, teacher, 'POST', `/api/lti/deep-linking/${id}/response`, { assessmentId })).status).toBe(200);
    const { jwt } = await uc().form(teacher, id);
    const { rows } = await h.sql.query<{ kid: string }>(
      'select kid from tool_keys where retired_at is null order by created_at desc limit 1',
    );
    expect(decodeProtectedHeader(jwt).kid).toBe(rows[0]!.kid);
    const jwks = (await call(h, undefined, 'GET', '/api/lti/jwks')).body as { keys: { kid: string }[] };
    // No data was sent: none is echoed.
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(jwks as never));
    expect(payload[`${DL}data`]).toBeUndefined();
  });

  it('refuses another teacher’s assessment, another district’s, one unknown (404 naming assessmentId), one without points (409)', async () => {
    const tenant = randomUUID();
    const reg = await register(tenant);
    const teacher = actor('teacher', tenant);
    const id = await pending(reg, teacher, null);
    const colleagues = await assessmentOf(actor('teacher', tenant), randomUUID(), 'Not mine', [1]);
    const elsewhere = await assessmentOf({ ...teacher, tenantId: randomUUID() }, randomUUID(), 'Other district', [1]);
    for (const assessmentId of [colleagues, elsewhere, randomUUID()]) {
      const res = await call(h, teacher, 'POST', `/api/lti/deep-linking/${id}/response`, { assessmentId });
      expect(res.status).toBe(404);
      expect(res.body.fields).toHaveProperty('assessmentId');
    }
    const empty = await assessmentOf(teacher, randomUUID(), 'Still generating', []);
    const res = await call(h, teacher, 'POST', `/api/lti/deep-linking/${id}/response`, { assessmentId: empty });
    expect(res.status).toBe(409);
    expect(res.body.fields).toHaveProperty('assessmentId');
    // Still pending: nothing was answered.
    expect((await call(h, teacher, 'GET', `/api/lti/deep-linking/${id}`)).status).toBe(200);
  });

  it('keeps the request its teacher’s, of their district, until it expires (404 after)', async () => {
    const tenant = randomUUID();
    const reg = await register(tenant);
    const teacher = actor('teacher', tenant);
    const assessmentId = await assessmentOf(teacher, randomUUID(), 'Mine', [1]);
    const id = await pending(reg, teacher, null);
    expect((await call(h, actor('teacher', tenant), 'GET', `/api/lti/deep-linking/${id}`)).status).toBe(404);
    expect((await call(h, { ...teacher, tenantId: randomUUID() }, 'GET', `/api/lti/deep-linking/${id}`)).status).toBe(
      404,
    );
    expect((await call(h, { ...teacher, role: 'student' }, 'GET', `/api/lti/deep-linking/${id}`)).status).toBe(403);
    await h.sql.query(`update lti_deep_link_requests set expires_at = now() - interval '1 second' where id = $1`, [id]);
    const expired = await call(h, teacher, 'POST', `/api/lti/deep-linking/${id}/response`, { assessmentId });
    expect(expired.status).toBe(404);
    expect(expired.body.code).toBe('lti_deep_link_request');
    expect((await call(h, teacher, 'GET', `/api/lti/deep-linking/${id}`)).status).toBe(404);
  });

  it('an expired request goes with the district’s retention run; a live one stays', async () => {
    const tenant = randomUUID();
    const reg = await register(tenant);
    const teacher = actor('teacher', tenant);
    const expired = await pending(reg, teacher, null);
    const live = await pending(reg, teacher, null);
    await h.sql.query(`update lti_deep_link_requests set expires_at = now() - interval '1 second' where id = $1`, [
      expired,
    ]);
    expect(await integrationsPrivacy.retention(sqlExecutor(h.sql), tenant, new Date(0))).toBe(1);
    const { rows } = await h.sql.query('select id from lti_deep_link_requests where tenant_id = $1', [tenant]);
    expect(rows).toEqual([{ id: live }]);
  });
});
