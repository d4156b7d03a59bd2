// LTI Deep Linking 2.0 against the real platform package (lti1p3platform, driven by
// e2e/lti/platform.py) through the gateway, in the all-in-one with identity, class, assessment and
// integrations (docs/adr/014-lti.md, "Deep linking"): an instructor's deep-linking request signs
// the teacher in and lands on the picking page; the teacher makes an assessment in the course's
// class, picks it, and the tool's page posts the LtiDeepLinkingResponse to the platform, which
// verifies it with its library against the tool's JWKS and keeps the content item. A learner's
// launch of that resource link lands on taking the assessment, the teacher's on its results; a
// link naming another assessment lands on the usual page with a notice. Refused: a learner's
// deep-linking request, a request whose accepted types lack ltiResourceLink, and a pick answered
// twice.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@checkpoint/testkit';
import { district, startLtiTool, TOOL, unescapeHtml as unescape, type LtiTool } from '../lti/tool.ts';
import { Client } from './helpers.ts';

let tool: LtiTool;
const home = district('LTI district', 'lti-district.test');

beforeAll(async () => {
  tool = await startLtiTool({
    services: ['identity', 'class', 'assessment', 'integrations'],
    districts: [home],
    env: {
      RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '10000',
      RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: '10000',
    },
  });
}, 180_000);

afterAll(async () => {
  await tool?.stop();
});

async function visit(url: string) {
  const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
}

/** An auto-submitting form's action and hidden fields. */
function formOf(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]*)"/.exec(page)?.[1];
  if (!action) throw new Error(`no form in: ${page.slice(0, 300)}`);
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]),
  );
  return { action: unescape(action), fields };
}

/** The platform starts a launch (query as platform.py's /start takes it); the tool's answer to its form post. */
async function launch(query: Record<string, string>) {
  const start = await visit(`${tool.platform.info.url}/start?${new URLSearchParams(query)}`);
  expect(start.status, start.text).toBe(302);
  const login = await visit(tool.atTool(start.location));
  expect(login.status, login.text).toBe(302);
  const authorize = await visit(login.location);
  expect(authorize.status, authorize.text).toBe(200);
  const form = formOf(authorize.text);
  const res = await fetch(tool.atTool(form.action), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      origin: tool.platform.info.url,
      'sec-fetch-site': 'cross-site',
    },
    body: new URLSearchParams(form.fields).toString(),
  });
  return { status: res.status, text: await res.text() };
}

/** The browser opens the page's "Open Checkpoint" link: a signed-in client, and where it landed. */
async function openCheckpoint(page: string): Promise<{ browser: Client; landing: string }> {
  const href = /<a id="open-checkpoint" href="([^"]*)"/.exec(page)?.[1];
  if (!href) throw new Error(`no Open Checkpoint link in: ${page.slice(0, 500)}`);
  const browser = new Client(tool.app.url);
  const res = await browser.get(new URL(tool.atTool(unescape(href))).pathname + new URL(unescape(href)).search);
  expect(res.status).toBe(302);
  return { browser, landing: res.headers.get('location') ?? '' };
}

describe('deep linking from the real platform', () => {
  let teacher: Client;
  let requestId: string;
  let assessmentId: string;
  let classId: string;

  it('an instructor’s deep-linking request signs the teacher in and lands on the picking page', async () => {
    const res = await launch({
      user: 'lms-teacher-dl',
      role: 'instructor',
      context: 'course-dl',
      message: 'deep_linking',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('Add a Checkpoint assessment');
    const opened = await openCheckpoint(res.text);
    teacher = opened.browser;
    const m = /^\/lti\/deep-linking\/([0-9a-f-]{36})$/.exec(opened.landing);
    expect(m, opened.landing).not.toBeNull();
    requestId = m![1]!;
    const view = await teacher.get(`/api/lti/deep-linking/${requestId}`);
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body).toMatchObject({ id: requestId, platform: tool.platform.info.issuer, assessments: [] });
    classId = view.body.classId;
    expect(classId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the teacher makes an assessment in the course’s class, picks it, and the platform verifies the content item', async () => {
    const created = await eventually(
      () =>
        teacher.post('/api/assessments', {
          title: 'Forces check',
          contentToAssess:
            'A force is a push or a pull. Forces change the motion of objects. Friction is a force that slows moving objects. ' +
            'Gravity pulls objects toward the Earth. Balanced forces do not change motion; unbalanced forces do.',
          questionType: 'true_false',
          numberOfQuestions: 2,
          description: '',
          classId,
        }),
      (r) => r.status !== 404,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    assessmentId = created.body.id;
    for (const q of [
      { questionText: 'Friction slows moving objects.', questionType: 'true_false', correctAnswer: 'True' },
      {
        questionText: 'Gravity pushes objects away from the Earth.',
        questionType: 'true_false',
        correctAnswer: 'False',
      },
    ])
      expect((await teacher.post(`/api/assessments/${assessmentId}/questions`, q)).status).toBe(201);
    expect((await teacher.post(`/api/assessments/${assessmentId}/assign`)).status).toBe(200);
    const listed = await eventually(
      () => teacher.get(`/api/lti/deep-linking/${requestId}`),
      (r) =>
        (r.body.assessments ?? []).some(
          (a: { id: string; totalPoints: number }) => a.id === assessmentId && a.totalPoints > 0,
        ),
    );
    const item = listed.body.assessments.find((a: { id: string }) => a.id === assessmentId);
    expect(item).toMatchObject({ title: 'Forces check', inLinkedClass: true });

    // Another teacher's assessment id, or none of the district's: 404 naming assessmentId.
    const foreign = await teacher.post(`/api/lti/deep-linking/${requestId}/response`, { assessmentId: randomUUID() });
    expect(foreign.status).toBe(404);
    expect(foreign.body.fields).toHaveProperty('assessmentId');

    const picked = await teacher.post(`/api/lti/deep-linking/${requestId}/response`, { assessmentId });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect((await teacher.post(`/api/lti/deep-linking/${requestId}/response`, { assessmentId })).status).toBe(404);

    const page = await teacher.get(picked.body.formUrl as string);
    expect(page.status).toBe(200);
    const form = formOf(String(page.body));
    expect(form.action).toBe(`${tool.platform.info.url}/deep-link-return`);
    // The browser posts it to the platform, which verifies it with its library.
    const returned = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ JWT: form.fields.JWT! }).toString(),
    });
    const text = await returned.text();
    expect(returned.status, text).toBe(200);
    expect(text).toContain('Forces check');
    const received = (await (await fetch(`${tool.platform.info.url}/deep-links`)).json()) as {
      items: Record<string, unknown>[];
      kid: string;
    }[];
    expect(received).toHaveLength(1);
    expect(received[0]!.items).toEqual([
      {
        type: 'ltiResourceLink',
        title: 'Forces check',
        url: `${TOOL}/api/lti/launch`,
        custom: { checkpoint_assessment_id: assessmentId },
        lineItem: { scoreMaximum: expect.any(Number), label: 'Forces check', resourceId: assessmentId },
      },
    ]);
    const jwks = (await (await fetch(`${tool.app.url}/api/lti/jwks`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toContain(received[0]!.kid);
    // The page is served once.
    expect((await teacher.get(picked.body.formUrl as string)).status).toBe(404);
  });

  it('a learner’s launch of that resource link lands on taking the assessment; the teacher’s on its results', async () => {
    const student = await launch({ user: 'lms-student-dl', role: 'learner', context: 'course-dl', content_item: '0' });
    expect(student.status, student.text).toBe(200);
    expect((await openCheckpoint(student.text)).landing).toBe(`/assessment/${assessmentId}`);
    const again = await launch({ user: 'lms-teacher-dl', role: 'instructor', context: 'course-dl', content_item: '0' });
    expect(again.status, again.text).toBe(200);
    expect((await openCheckpoint(again.text)).landing).toBe(`/assessment-results/${assessmentId}`);
  });

  it('the same link in another course (its class has not that assessment) lands on the usual page with a notice', async () => {
    await launch({ user: 'lms-teacher-dl', role: 'instructor', context: 'course-other' });
    const student = await launch({
      user: 'lms-student-dl',
      role: 'learner',
      context: 'course-other',
      content_item: '0',
    });
    expect(student.status, student.text).toBe(200);
    expect(student.text).toContain('is not one of this course’s class');
    expect((await openCheckpoint(student.text)).landing).toBe('/student-dashboard');
  });

  it('refuses a learner’s deep-linking request, and one whose accepted types lack ltiResourceLink', async () => {
    const learner = await launch({
      user: 'lms-student-dl',
      role: 'learner',
      context: 'course-dl',
      message: 'deep_linking',
    });
    expect(learner.status).toBe(403);
    expect(learner.text).toContain('Only a teacher can add Checkpoint assessments');
    const files = await launch({
      user: 'lms-teacher-dl',
      role: 'instructor',
      context: 'course-dl',
      message: 'deep_linking',
      accept: 'file,html',
    });
    expect(files.status).toBe(400);
    expect(files.text).toContain('ltiResourceLink');
  });
});
