// What a launch needs before and around the sign-in (ADR 014), on real Postgres: the LMS roles
// mapped to Checkpoint's, the login's state bound to the browser by a SameSite=None cookie on
// /api/lti (another browser's cookie refused; none accepted), and one class per course however
// many first launches run at once. The whole flow (identity, class, the real platform) is
// e2e/api/integrations.contract.test.ts.
import { createHash, randomUUID } from 'node:crypto';
import { gatewayHeaders } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchesRepository } from '../src/data-access/launches.repository.ts';
import { checkpointRole } from '../src/domain/lti.use-case.ts';
import { actor, call, platformRegistration, startIntegrationsService, TOOL_URL, type Harness } from './helpers.ts';

let h: Harness;
const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/';

beforeAll(async () => {
  h = await startIntegrationsService();
});
afterAll(async () => {
  await h?.stop();
});

const register = async (tenant = randomUUID()) => {
  const res = await call(
    h,
    actor('admin', tenant),
    'POST',
    '/api/integrations/lti/registrations',
    platformRegistration(),
  );
  expect(res.status).toBe(201);
  return res.body as { id: string; issuer: string; clientId: string; adminRoleFromLms: boolean };
};

describe('LMS roles', () => {
  it.each([
    [[`${LIS}membership#Instructor`], false, 'teacher'],
    [[`${LIS}membership/Instructor#TeachingAssistant`], false, 'teacher'],
    [['Instructor'], false, 'teacher'],
    [[`${LIS}institution/person#Faculty`], false, 'teacher'],
    [[`${LIS}membership#Learner`], false, 'student'],
    [[`${LIS}membership#Learner`, `${LIS}membership#Instructor`], false, 'teacher'],
    [[`${LIS}institution/person#Administrator`], false, 'teacher'],
    [[`${LIS}institution/person#Administrator`], true, 'admin'],
    [[`${LIS}membership#Administrator`, `${LIS}membership#Learner`], true, 'admin'],
    [[`${LIS}membership#Mentor`], true, undefined],
    [[], false, undefined],
  ])('%j (admin from LMS: %s) → %s', (roles, adminFromLms, expected) => {
    expect(checkpointRole(roles, adminFromLms)).toBe(expected);
  });

  it('a registration says whether the LMS’s Administrator makes a district admin (off unless set)', async () => {
    const tenant = randomUUID();
    const reg = await register(tenant);
    expect(reg.adminRoleFromLms).toBe(false);
    const { id, ...rest } = reg as unknown as Record<string, unknown>;
    const input = Object.fromEntries(
      Object.entries(rest).filter(([k]) =>
        ['issuer', 'clientId', 'deploymentIds', 'jwksUrl', 'authorizationUrl', 'tokenUrl'].includes(k),
      ),
    );
    const res = await call(h, actor('admin', tenant), 'PUT', `/api/integrations/lti/registrations/${String(id)}`, {
      ...input,
      adminRoleFromLms: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.adminRoleFromLms).toBe(true);
  });
});

describe('the state bound to the browser', () => {
  async function loginOf() {
    const reg = await register();
    const res = await fetch(
      `${h.url}/api/lti/login?${new URLSearchParams({ iss: reg.issuer, client_id: reg.clientId, login_hint: 'u1', target_link_uri: `${TOOL_URL}/api/lti/launch` })}`,
      { redirect: 'manual', headers: await gatewayHeaders('integrations', undefined, '127.0.0.1') },
    );
    expect(res.status).toBe(302);
    const state = new URL(res.headers.get('location')!).searchParams.get('state')!;
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cp_lti_'))!;
    return { state, cookie };
  }

  async function launch(state: string, cookie?: string) {
    const res = await fetch(`${h.url}/api/lti/launch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
        ...(await gatewayHeaders('integrations', undefined, '127.0.0.1')),
      },
      body: new URLSearchParams({ id_token: 'not-a-jwt', state }).toString(),
    });
    return { status: res.status, body: (await res.json()) as { code: string; message: string; fields: object } };
  }

  it('the login sets a SameSite=None cookie on /api/lti only, its hash kept with the state', async () => {
    const { state, cookie } = await loginOf();
    expect(cookie).toMatch(/^cp_lti_\w{16}=[\w-]{43};/);
    expect(cookie).toMatch(/Path=\/api\/lti;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=None/);
    const value = cookie.split(';')[0]!.split('=')[1]!;
    const sha = (v: string) => createHash('sha256').update(v).digest('base64url');
    const { rows } = await h.sql.query('select binding_hash from lti_login_states where state_hash = $1', [sha(state)]);
    expect(rows).toEqual([{ binding_hash: sha(value) }]);
  });

  it('a launch with another browser’s cookie is refused (naming state); without one, the token decides', async () => {
    const a = await loginOf();
    const foreign = await launch(a.state, `${a.cookie.split('=')[0]}=someone-elses-value`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({
      code: 'lti_state',
      fields: { state: expect.stringContaining('another browser') },
    });

    const b = await loginOf();
    const withOwn = await launch(b.state, b.cookie.split(';')[0]);
    expect(withOwn.body.code).toBe('lti_id_token');
    const c = await loginOf();
    const without = await launch(c.state);
    expect(without.body.code).toBe('lti_id_token');
  });
});

describe('the course’s class', () => {
  it('two first launches of one course at once make one class; another course gets its own', async () => {
    const reg = await register();
    const launches = launchesRepository(h.sql);
    let made = 0;
    const create = async () => {
      made++;
      await new Promise((r) => setTimeout(r, 200));
      return randomUUID();
    };
    const link = { registrationId: reg.id, contextId: 'course-9', tenantId: randomUUID(), contextTitle: 'Physics' };
    const [x, y] = await Promise.all([launches.linkOrCreate(link, create), launches.linkOrCreate(link, create)]);
    expect(made).toBe(1);
    expect(x.classId).toBe(y.classId);
    expect([x.created, y.created].sort()).toEqual([false, true]);
    expect(await launches.linkedClass(reg.id, 'course-9')).toBe(x.classId);
    const other = await launches.linkOrCreate({ ...link, contextId: 'course-10' }, create);
    expect(other.created).toBe(true);
    expect(other.classId).not.toBe(x.classId);
    // Another registration (another district's) never reaches it.
    expect(await launches.linkedClass((await register()).id, 'course-9')).toBeUndefined();
  });
});
