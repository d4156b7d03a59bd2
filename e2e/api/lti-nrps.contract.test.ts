// Names and Role Provisioning Services (NRPS 2.0) from a real platform implementation (the PyPI
// package lti1p3platform, driven by e2e/lti/platform.py): an instructor's launch carrying the NRPS
// claim creates the course's class, and the course's learners appear on its roster before any of
// them launches (the tool's client-credentials token from the package's token endpoint, the
// membership container read page by page). Then the teacher's on-demand sync: idempotent, the
// refusals (a platform error, a membership URL outside the egress rules) named and leaving nothing
// that a later sync cannot finish, and another district's teacher never reaching the class
// (docs/adr/014-lti.md, "Rosters from the LMS"). Identity, class and integrations run.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, eventually, type Actor } from '@checkpoint/testkit';
import { setRoster, type PlatformMember } from '../lti/platform.ts';
import { district, startLtiTool, unescapeHtml as unescape, type LtiTool } from '../lti/tool.ts';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';

let tool: LtiTool;
let db: pg.Pool;
const home = district('NRPS district', 'nrps-district.test');
const other = district('NRPS district', 'nrps-other.test');
const districtId = home.id;
const otherDistrictId = other.id;
const svc = (name: string) => tool.service(name);

beforeAll(async () => {
  tool = await startLtiTool({ services: ['identity', 'class', 'integrations'], districts: [home, other] });
  db = new pg.Pool({ connectionString: tool.postgres.url, options: '-c search_path=integrations', max: 2 });
  db.on('error', () => {});
}, 180_000);

afterAll(async () => {
  await db?.end();
  await tool?.stop();
});

/** A whole launch from the platform's login initiation to the tool's landing; the teacher it signed in. */
async function launch(user: string, role: 'instructor' | 'learner', context: string, nrps: boolean) {
  const query = new URLSearchParams({
    user,
    role,
    context,
    context_title: `Course ${context}`,
    ...(nrps ? { nrps: '1' } : {}),
  });
  const start = await fetch(`${tool.platform.info.url}/start?${query}`, { redirect: 'manual' });
  const login = await fetch(tool.atTool(start.headers.get('location')!), {
    redirect: 'manual',
    headers: { accept: 'text/html' },
  });
  expect(login.status, await login.clone().text()).toBe(302);
  const authorize = await fetch(login.headers.get('location')!);
  const form = await authorize.text();
  const action = unescape(/<form[^>]*action="([^"]*)"/.exec(form)![1]!);
  const fields = Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]),
  );
  const posted = await fetch(tool.atTool(action), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      origin: tool.platform.info.url,
      'sec-fetch-site': 'cross-site',
    },
    body: new URLSearchParams(fields).toString(),
  });
  const page = await posted.text();
  expect(posted.status, page).toBe(200);
  const link = unescape(/<a id="open-checkpoint" href="([^"]*)"/.exec(page)![1]!);
  const redeemed = await fetch(tool.atTool(link), { redirect: 'manual' });
  const cookies = redeemed.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
  const me = (await (await fetch(`${tool.app.url}/api/auth/user`, { headers: { cookie: cookies } })).json()) as {
    id: string;
    tenantId: string;
    role: 'teacher';
  };
  return {
    teacher: { userId: me.id, tenantId: me.tenantId, role: me.role } as Actor,
    location: redeemed.headers.get('location') ?? '',
  };
}

const learner = (id: string, extra: Partial<PlatformMember> = {}): PlatformMember => ({
  user_id: id,
  roles: [`${LIS}Learner`],
  status: 'Active',
  given_name: 'Lee',
  family_name: id,
  name: `Lee ${id}`,
  ...extra,
});

const roster = async (teacher: Actor, classId: string) => {
  const res = await call(svc('class'), teacher, 'GET', `/api/classes/${classId}/students`);
  expect(res.status).toBe(200);
  return (res.body as { student: { id: string } }[]).map((m) => m.student.id);
};
const sync = (teacher: Actor, classId: string) =>
  call(svc('integrations'), teacher, 'POST', `/api/integrations/lti/classes/${classId}/roster/sync`);
const lmsIdentities = async () =>
  (await db.query<{ subject: string; user_id: string }>('select subject, user_id from identity.lti_identities')).rows;

describe('NRPS: the course’s learners on the class roster', () => {
  let teacher: Actor;
  let classId: string;
  const context = 'nrps-course-1';

  it('when an instructor launches a course with the NRPS claim, then its class is created and the learners appear on its roster before any of them launches', async () => {
    await setRoster(tool.platform.info, context, {
      pageSize: 2,
      members: [
        { user_id: 'nrps-teacher-1', roles: [`${LIS}Instructor`], status: 'Active', name: 'Pat Teacher' },
        learner('nrps-l1', { email: 'l1@nrps-district.test' }),
        learner('nrps-l2'),
        learner('nrps-l3'),
        learner('nrps-gone', { status: 'Inactive' }),
        learner('nrps-deleted', { status: 'Deleted' }),
      ],
    });
    const landed = await launch('nrps-teacher-1', 'instructor', context, true);
    teacher = landed.teacher;
    expect(landed.location).toMatch(/^\/class\/[0-9a-f-]{36}$/);
    classId = landed.location.slice('/class/'.length);
    // In the background: three pages of two, three active learners.
    const ids = await eventually(
      () => roster(teacher, classId),
      (r) => r.length === 3,
      20_000,
    );
    expect(ids).toHaveLength(3);
    const { rows } = await db.query(
      'select memberships_url, roster_sync_outcome from lti_context_links where context_id = $1',
      [context],
    );
    expect(rows[0].memberships_url).toBe(`${tool.platform.info.url}/contexts/${context}/memberships`);
    expect(rows[0].roster_sync_outcome).toMatchObject({ ok: true, added: 3, skipped: 3 });
    // Accounts of that district, linked by the LMS user id (a learner's later launch finds the same account).
    const identities = (await lmsIdentities()).filter((r) => r.subject.startsWith('nrps-l'));
    expect(identities.map((r) => r.subject).sort()).toEqual(['nrps-l1', 'nrps-l2', 'nrps-l3']);
    expect(identities.map((r) => r.user_id).sort()).toEqual([...ids].sort());
  });

  it('when a synced learner launches later, then it is the same account, already on the roster', async () => {
    const before = await roster(teacher, classId);
    const landed = await launch('nrps-l2', 'learner', context, true);
    expect(landed.location).toBe('/student-dashboard');
    const l2 = (await lmsIdentities()).find((r) => r.subject === 'nrps-l2')!;
    expect(landed.teacher.userId).toBe(l2.user_id);
    expect(before).toContain(l2.user_id);
    expect(await roster(teacher, classId)).toEqual(before);
  });

  it('when the teacher syncs again, then everyone is kept and nothing changes (idempotent); a new learner is added', async () => {
    const again = await sync(teacher, classId);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const [course] = again.body.courses;
    expect(course.added).toEqual([]);
    expect(course.kept).toHaveLength(3);
    expect(course.skipped.map((s: { lmsUserId: string; reason: string }) => [s.lmsUserId, s.reason]).sort()).toEqual([
      ['nrps-deleted', 'deleted'],
      ['nrps-gone', 'inactive'],
      ['nrps-teacher-1', 'not_a_learner'],
    ]);
    await setRoster(tool.platform.info, context, {
      pageSize: 2,
      members: [learner('nrps-l1'), learner('nrps-l2'), learner('nrps-l3'), learner('nrps-l4')],
    });
    const more = await sync(teacher, classId);
    expect(more.body.courses[0].added).toEqual([
      expect.objectContaining({ lmsUserId: 'nrps-l4', name: 'Lee nrps-l4', accountCreated: true }),
    ]);
    expect(more.body.courses[0].kept).toHaveLength(3);
    expect(await roster(teacher, classId)).toHaveLength(4);
    const status = await call(svc('integrations'), teacher, 'GET', `/api/integrations/lti/classes/${classId}/roster`);
    expect(status.body.courses).toEqual([
      expect.objectContaining({
        contextId: context,
        rosterAvailable: true,
        lastOutcome: { ok: true, added: 1, kept: 3, skipped: 0 },
      }),
    ]);
  });

  it('when the platform fails on a page, then the sync is refused naming it and nothing is written; the next sync finishes', async () => {
    await setRoster(tool.platform.info, context, {
      pageSize: 2,
      failPage: 2,
      members: [learner('nrps-l1'), learner('nrps-l5'), learner('nrps-l6'), learner('nrps-l7')],
    });
    const failed = await sync(teacher, classId);
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({
      code: 'lti_platform_error',
      fields: { contextMembershipsUrl: expect.stringContaining('500') },
    });
    // The first page was read, not written: all pages are read before anyone is added.
    expect((await lmsIdentities()).some((r) => r.subject === 'nrps-l5')).toBe(false);
    expect(await roster(teacher, classId)).toHaveLength(4);
    const { rows } = await db.query('select roster_sync_outcome from lti_context_links where context_id = $1', [
      context,
    ]);
    expect(rows[0].roster_sync_outcome).toMatchObject({ ok: false, error: 'lti_platform_error' });
    await setRoster(tool.platform.info, context, {
      pageSize: 2,
      members: [learner('nrps-l1'), learner('nrps-l5'), learner('nrps-l6'), learner('nrps-l7')],
    });
    const retried = await sync(teacher, classId);
    expect(retried.status).toBe(200);
    expect(retried.body.courses[0].added.map((a: { lmsUserId: string }) => a.lmsUserId)).toEqual([
      'nrps-l5',
      'nrps-l6',
      'nrps-l7',
    ]);
    // Nobody is removed: students who left the LMS course stay (see the ADR).
    expect(await roster(teacher, classId)).toHaveLength(7);
  });

  it('when the membership URL is outside the egress rules, then the sync is refused naming it (422) and nothing is called', async () => {
    await db.query('update lti_context_links set memberships_url = $2 where context_id = $1', [
      context,
      'http://10.0.0.5/contexts/x/memberships',
    ]);
    const refused = await sync(teacher, classId);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'lti_memberships_url_refused',
      fields: { contextMembershipsUrl: expect.any(String) },
    });
    await db.query('update lti_context_links set memberships_url = $2 where context_id = $1', [
      context,
      `${tool.platform.info.url}/contexts/${context}/memberships`,
    ]);
  });

  it('when another teacher or another district’s teacher asks, then 404; a student or admin is refused (403)', async () => {
    for (const who of [
      actor('teacher', districtId),
      actor('teacher', otherDistrictId),
      { ...teacher, tenantId: otherDistrictId },
    ]) {
      expect((await sync(who, classId)).status).toBe(404);
      expect(
        (await call(svc('integrations'), who, 'GET', `/api/integrations/lti/classes/${classId}/roster`)).status,
      ).toBe(404);
    }
    expect((await sync(actor('student', districtId), classId)).status).toBe(403);
    expect((await sync(actor('admin', districtId), classId)).status).toBe(403);
  });

  it('when an instructor launch has no NRPS claim, then no roster URL is kept and the sync says so (409)', async () => {
    const landed = await launch('nrps-teacher-2', 'instructor', 'nrps-course-2', false);
    const otherClass = landed.location.slice('/class/'.length);
    const status = await call(
      svc('integrations'),
      landed.teacher,
      'GET',
      `/api/integrations/lti/classes/${otherClass}/roster`,
    );
    expect(status.body.courses).toEqual([
      expect.objectContaining({ contextId: 'nrps-course-2', rosterAvailable: false }),
    ]);
    const res = await sync(landed.teacher, otherClass);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('lti_nrps_unavailable');
  });
});
