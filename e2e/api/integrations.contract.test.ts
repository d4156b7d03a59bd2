// LTI 1.3 launches from a real platform implementation (the PyPI package lti1p3platform, driven
// by e2e/lti/platform.py on loopback) through the gateway to the integrations service, in the
// all-in-one with that service alone: the district admin registers the platform by hand, the
// platform initiates a login, the tool sends it to the platform's authorization URL with a state
// and a nonce, the platform posts a signed id_token back across sites, and the tool verifies and
// records the launch. The launch signs the LMS user in (identity, one-time handoff redeemed
// first-party) and links the course to a class (class service): identity, class and integrations
// run. Then the refusals: another key, a tampered token, a replayed nonce, a used state, an unknown
// deployment (in the login and in the token), an expired token, another audience, a handoff used
// twice (docs/adr/014-lti.md).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { district, startLtiTool, TOOL, unescapeHtml, type LtiTool } from '../lti/tool.ts';

let tool: LtiTool;
let db: pg.Pool;
/** The district whose admin registers the platform (identity knows it: an LTI sign-in creates its accounts). */
const home = district('LTI district', 'lti-district.test');
const districtId = home.id;

beforeAll(async () => {
  // The district admin registers the platform by hand, with what its admin screen shows.
  tool = await startLtiTool({ services: ['identity', 'class', 'integrations'], districts: [home] });
  db = new pg.Pool({ connectionString: tool.postgres.url, options: '-c search_path=integrations', max: 2 });
  db.on('error', () => {});
}, 180_000);

afterAll(async () => {
  await db?.end();
  await tool?.stop();
});

/** A GET that does not follow redirects: its status and Location. */
async function visit(url: string): Promise<{ status: number; location: string; text: string }> {
  const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
}

/** The platform's auto-submitting form: where it posts and its fields. */
function launchForm(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]*)"/.exec(page)?.[1];
  if (!action) throw new Error(`no launch form in: ${page.slice(0, 300)}`);
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      unescapeHtml(m[2]!),
    ]),
  );
  return { action: unescapeHtml(action), fields };
}

/** The browser's way from the platform's login initiation to the launch form it would post. */
async function loginAt(variant: string, user = 'lms-user-1', extra: Record<string, string> = {}) {
  const start = await visit(`${tool.platform.info.url}/start?${new URLSearchParams({ user, variant, ...extra })}`);
  expect(start.status).toBe(302);
  const login = await visit(tool.atTool(start.location));
  return login;
}

async function launchFormFor(variant: string, user = 'lms-user-1', extra: Record<string, string> = {}) {
  const login = await loginAt(variant, user, extra);
  expect(login.status, login.text).toBe(302);
  expect(login.location.startsWith(tool.platform.info.authorizationUrl)).toBe(true);
  const authorize = await visit(login.location);
  expect(authorize.status, authorize.text).toBe(200);
  return launchForm(authorize.text);
}

/** Posts the form as the browser does from the LMS's page: across sites, urlencoded. */
async function post(action: string, fields: Record<string, string>) {
  const res = await fetch(tool.atTool(action), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html,application/xhtml+xml',
      origin: tool.platform.info.url,
      'sec-fetch-site': 'cross-site',
    },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: res.status,
    text: await res.text(),
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
  };
}

const launches = async (user: string) =>
  (
    await db.query<{
      lms_user_id: string;
      roles: string[];
      context_id: string;
      context_title: string;
      deployment_id: string;
    }>('select lms_user_id, roles, context_id, context_title, deployment_id from lti_launches where lms_user_id = $1', [
      user,
    ])
  ).rows;

/** The page's "Open Checkpoint" link (the one-time sign-in, first-party, in a new window). */
function openCheckpointLink(page: string): string {
  const m = /<a id="open-checkpoint" href="([^"]*)" target="_blank"/.exec(page);
  if (!m) throw new Error(`no Open Checkpoint link in: ${page.slice(0, 500)}`);
  return m[1]!.replace(/&amp;/g, '&');
}

/** The browser opens the link: where it is sent, and the cookies it now holds ("name=value" pairs). */
async function redeem(link: string): Promise<{ status: number; location: string; cookies: string }> {
  const res = await fetch(tool.atTool(link), { redirect: 'manual', headers: { accept: 'text/html' } });
  const cookies = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
  return { status: res.status, location: res.headers.get('location') ?? '', cookies };
}

async function asBrowser(cookies: string, path: string) {
  const res = await fetch(`${tool.app.url}${path}`, { headers: { cookie: cookies } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are checked with matchers
  return { status: res.status, body: (await res.json()) as any };
}

/** A whole launch of `user` as `role` in `context`: the landing page's link. */
async function launchAs(user: string, role: 'instructor' | 'learner', context: string, title = 'Chemistry 9') {
  const form = await launchFormFor('ok', user, { role, context, context_title: title });
  const res = await post(form.action, form.fields);
  expect(res.status, res.text).toBe(200);
  return { page: res.text, link: openCheckpointLink(res.text), headers: res.headers };
}

describe('sign-in from a launch, and the course’s class', () => {
  let classId: string;

  it('when an instructor launches a course the first time, then its class is created and the handoff signs the teacher in', async () => {
    const { page, link, headers } = await launchAs('lms-teacher-1', 'instructor', 'course-77');
    expect(page).toContain('was created in Checkpoint for this course');
    // Shown in the LMS's iframe: that answer alone may be framed (by https pages, and by the
    // platform's own origin where it is plain http, as this loopback one), runs nothing, and leaks
    // no token by Referer.
    expect(headers.get('content-security-policy')).toContain(`frame-ancestors https: ${tool.platform.info.url}`);
    expect(headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(headers.get('x-frame-options')).toBeNull();
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(link.startsWith(`${TOOL}/api/auth/lti/handoff?token=`)).toBe(true);
    const signedIn = await redeem(link);
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toMatch(/^\/class\/[0-9a-f-]{36}$/);
    classId = signedIn.location.slice('/class/'.length);
    const me = await asBrowser(signedIn.cookies, '/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 'teacher', tenantId: districtId, firstName: 'Pat' });
    const cls = await asBrowser(signedIn.cookies, `/api/classes/${classId}`);
    expect(cls.status).toBe(200);
    expect(cls.body).toMatchObject({ id: classId, name: 'Chemistry 9' });
    const { rows } = await db.query('select class_id, tenant_id from lti_context_links where context_id = $1', [
      'course-77',
    ]);
    expect(rows).toEqual([{ class_id: classId, tenant_id: districtId }]);
  });

  it('when the same course is launched again, then it reaches the same class and the same account', async () => {
    const first = await asBrowser(
      (await redeem((await launchAs('lms-teacher-1', 'instructor', 'course-77')).link)).cookies,
      '/api/auth/user',
    );
    const again = await redeem((await launchAs('lms-teacher-1', 'instructor', 'course-77')).link);
    expect(again.location).toBe(`/class/${classId}`);
    expect((await asBrowser(again.cookies, '/api/auth/user')).body.id).toBe(first.body.id);
    const { rows } = await db.query('select count(*)::int as n from lti_context_links where context_id = $1', [
      'course-77',
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('when another instructor launches the course, then they reach the same class as its co-teacher', async () => {
    const signedIn = await redeem((await launchAs('lms-teacher-2', 'instructor', 'course-77')).link);
    expect(signedIn.location).toBe(`/class/${classId}`);
    const cls = await asBrowser(signedIn.cookies, `/api/classes/${classId}`);
    expect(cls.status).toBe(200);
    expect(cls.body.name).toBe('Chemistry 9');
  });

  it('when a learner launches the course, then the student is signed in and enrolled in its class', async () => {
    const { link } = await launchAs('lms-student-1', 'learner', 'course-77');
    const signedIn = await redeem(link);
    expect(signedIn.location).toBe('/student-dashboard');
    const me = await asBrowser(signedIn.cookies, '/api/auth/user');
    expect(me.body).toMatchObject({ role: 'student', tenantId: districtId });
    const classes = await asBrowser(signedIn.cookies, '/api/student/classes');
    expect(classes.status).toBe(200);
    expect(JSON.stringify(classes.body)).toContain(classId);
  });

  it('when a learner launches a course no instructor has launched, then they are signed in and told to wait', async () => {
    const { page, link } = await launchAs('lms-student-2', 'learner', 'course-without-class');
    expect(page).toContain('Your teacher has not opened Checkpoint from this course yet');
    expect((await redeem(link)).location).toBe('/student-dashboard');
  });

  it('when a handoff is used twice, then the second is refused and sets no session', async () => {
    const { link } = await launchAs('lms-student-1', 'learner', 'course-77');
    expect((await redeem(link)).location).toBe('/student-dashboard');
    const twice = await redeem(link);
    expect(twice.status).toBe(302);
    expect(twice.location).toBe('/auth?error=lti_handoff_invalid');
    expect(twice.cookies).not.toMatch(/cp_session=/);
  });
});

describe('an LTI 1.3 launch from lti1p3platform', () => {
  it('when the platform initiates a login, then the tool redirects to its authorization URL with a state and a nonce', async () => {
    const login = await loginAt('ok', 'lms-user-redirect');
    expect(login.status).toBe(302);
    const to = new URL(login.location);
    expect(`${to.origin}${to.pathname}`).toBe(tool.platform.info.authorizationUrl);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: tool.platform.info.clientId,
      redirect_uri: `${TOOL}/api/lti/launch`,
      login_hint: 'lms-user-redirect',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
    });
    // Only the state's hash is kept.
    const { rows } = await db.query('select state_hash from lti_login_states where state_hash = $1', [
      to.searchParams.get('state'),
    ]);
    expect(rows).toEqual([]);
  });

  it('when the platform posts the id_token, then the launch is verified and recorded with the user, roles and course', async () => {
    const form = await launchFormFor('ok', 'lms-user-ok', {
      role: 'instructor',
      context: 'course-42',
      context_title: 'Biology 7',
    });
    expect(form.action).toBe(`${TOOL}/api/lti/launch`);
    const res = await post(form.action, form.fields);
    expect(res.status, res.text).toBe(200);
    expect(res.type).toMatch(/text\/html/);
    expect(res.text).toContain('Open Checkpoint');
    expect(res.text).toContain('Biology 7');
    expect(await launches('lms-user-ok')).toEqual([
      {
        lms_user_id: 'lms-user-ok',
        roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
        context_id: 'course-42',
        context_title: 'Biology 7',
        deployment_id: tool.platform.info.deploymentId,
      },
    ]);
  });

  it('when the same id_token comes again, with its used state or with a fresh login’s state, then it is refused', async () => {
    const first = await launchFormFor('ok', 'lms-user-replay');
    expect((await post(first.action, first.fields)).status).toBe(200);
    const sameState = await post(first.action, first.fields);
    expect(sameState.status).toBe(400);
    expect(sameState.text).toContain('What failed: state');
    const fresh = await launchFormFor('ok', 'lms-user-replay');
    const replayed = await post(first.action, { id_token: first.fields.id_token!, state: fresh.fields.state! });
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain('What failed: nonce');
    expect(await launches('lms-user-replay')).toHaveLength(1);
  });

  it.each([
    ['other_key', 'signature'],
    ['expired', 'exp'],
    ['wrong_audience', 'aud'],
    ['unknown_deployment', 'deployment_id'],
  ])('when the platform sends a token %s, then 401 names %s and nothing is recorded', async (variant, what) => {
    const user = `lms-user-${variant}`;
    const form = await launchFormFor(variant, user);
    const res = await post(form.action, form.fields);
    expect(res.status, res.text).toBe(401);
    expect(res.text).toContain(`What failed: ${what}`);
    expect(await launches(user)).toEqual([]);
  });

  it('when the token was changed after signing, then its signature fails', async () => {
    const form = await launchFormFor('ok', 'lms-user-tampered');
    const [header, payload, signature] = form.fields.id_token!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    claims.sub = 'lms-user-someone-else';
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    const res = await post(form.action, { ...form.fields, id_token: forged });
    expect(res.status).toBe(401);
    expect(res.text).toContain('What failed: signature');
    expect(await launches('lms-user-someone-else')).toEqual([]);
  });

  it('when the login names a deployment nobody registered, then the login is refused before the platform is asked', async () => {
    const login = await loginAt('login_unknown_deployment', 'lms-user-deployment');
    expect(login.status).toBe(400);
    expect(login.text).toContain('What failed: lti_deployment_id');
  });

  it('when a client asks for JSON, then refusals are JSON naming the field', async () => {
    const res = await fetch(`${tool.app.url}/api/lti/launch`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: tool.platform.info.url },
      body: new URLSearchParams({ id_token: 'a.b.c', state: 'unknown-state' }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'lti_state', fields: { state: expect.any(String) } });
  });

  it('when another route is posted across sites, then the gateway still refuses it (CSRF)', async () => {
    const res = await fetch(`${tool.app.url}/api/integrations/lti/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: tool.platform.info.url },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('when the registrations are asked for signed out, then 401 (every role and district: the authorization matrix)', async () => {
    expect((await fetch(`${tool.app.url}/api/integrations/lti/registrations`)).status).toBe(401);
  });

  it('when the JWKS is read through the gateway, then it is the tool’s public key', async () => {
    const res = await fetch(`${tool.app.url}/api/lti/jwks`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256', kid: expect.any(String) })]);
    expect(body.keys[0]).not.toHaveProperty('d');
  });
});
