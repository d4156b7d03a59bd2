// LTI Deep Linking in the browser, against the real platform package (lti1p3platform, driven by
// e2e/lti/platform.py): the district admin registers the platform by hand; an instructor's
// deep-linking request from the LMS opens Checkpoint (the launch page's link, a new window), where
// the teacher picks their assessment; the tool's page posts the signed answer to the LMS, which
// verifies it with its library and shows the content item; then a learner's launch of that
// resource link lands on taking the assessment, which they take and submit in the browser, and the
// LMS's gradebook column (the line item the LMS made from the content item) receives the score
// (docs/adr/014-lti.md, "Deep linking", "Scores to the LMS").
import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { expectTargetSizes } from './a11y-checks';
import { signIn, test, WCAG_TAGS } from './helpers';
import { setPasswordByMail } from './mailbox';
import { startPlatform, type RunningPlatform } from '../lti/platform';

const DOMAIN = 'demo.checkpoint.school';
let platform: RunningPlatform | undefined;

/** The platform starts a launch; the tool's page in the LMS offers "Open Checkpoint" (a new window): where it lands. */
async function launchAndOpen(context: BrowserContext, query: Record<string, string>): Promise<Page> {
  const lms = await context.newPage();
  await lms.goto(`${platform!.info.url}/start?${new URLSearchParams(query)}`);
  const [opened] = await Promise.all([
    lms.waitForEvent('popup'),
    lms.getByRole('link', { name: 'Open Checkpoint' }).click(),
  ]);
  await opened.waitForLoadState();
  return opened;
}

test.describe('LTI deep linking', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test.afterAll(async () => {
    await platform?.stop();
  });

  test('when a teacher adds a Checkpoint assessment from the LMS, then the LMS receives the link, a student’s launch of it lands on the assessment, and the score they submit reaches the LMS’s gradebook', async ({
    page,
    context,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    // The tool as the platform knows it: the all-in-one's PUBLIC_URL (localhost and this run's port).
    const tool = `http://localhost:${new URL(baseURL!).port}`;
    platform = await startPlatform(tool, { toolJwksUrl: `${tool}/api/lti/jwks` });
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, admin);
    await page.goto('/admin/integrations');
    await page.getByRole('button', { name: 'Add a registration by hand' }).click();
    const form = page.getByRole('form', { name: 'New LMS registration' });
    const { issuer, clientId, deploymentId, jwksUrl, authorizationUrl, tokenUrl } = platform.info;
    await form.getByLabel('Issuer').fill(issuer);
    await form.getByLabel('Client ID').fill(clientId);
    await form.getByLabel('Deployment IDs').fill(deploymentId);
    await form.getByLabel('Platform JWKS URL').fill(jwksUrl);
    await form.getByLabel('Authorization URL').fill(authorizationUrl);
    await form.getByLabel('Token URL').fill(tokenUrl);
    await form.getByRole('button', { name: 'Add registration' }).click();
    await expect(page.getByRole('table', { name: 'LMS registrations' })).toContainText(issuer);

    // The instructor's deep-linking request: signed in, on the picking page.
    const course = `course-${run}`;
    const teacherWindow = await launchAndOpen(context, {
      user: `lms-teacher-${run}`,
      role: 'instructor',
      context: course,
      context_title: 'Forces 8',
      message: 'deep_linking',
    });
    await expect(teacherWindow).toHaveURL(/\/lti\/deep-linking\/[0-9a-f-]{36}$/);
    await expect(
      teacherWindow.getByRole('heading', { name: 'Add a Checkpoint assessment to your course' }),
    ).toBeVisible();
    await expect(teacherWindow.getByText('You have no assessments yet.')).toBeVisible();

    // The teacher makes an assessment in the course's class (set up through the API as the app does).
    const requestId = /deep-linking\/([0-9a-f-]{36})$/.exec(teacherWindow.url())![1]!;
    const csrf = (await context.cookies(tool)).find((c) => c.name === 'cp_csrf')?.value ?? '';
    const api = teacherWindow.request;
    const pending = await (await api.get(`${tool}/api/lti/deep-linking/${requestId}`)).json();
    const headers = { 'x-csrf-token': csrf, origin: tool };
    let created;
    for (let i = 0; i < 50; i++) {
      created = await api.post(`${tool}/api/assessments`, {
        headers,
        data: {
          title: `Forces check ${run}`,
          contentToAssess:
            'A force is a push or a pull. Forces change the motion of objects. Friction is a force that slows moving objects. ' +
            'Gravity pulls objects toward the Earth. Balanced forces do not change motion; unbalanced forces do.',
          questionType: 'true_false',
          numberOfQuestions: 2,
          description: '',
          classId: pending.classId,
        },
      });
      if (created.status() !== 404) break;
      await teacherWindow.waitForTimeout(200);
    }
    expect(created!.status(), await created!.text()).toBe(201);
    const assessmentId = (await created!.json()).id as string;
    // Its questions come from the generator; then it is given to the class.
    await expect
      .poll(async () => (await (await api.get(`${tool}/api/assessments/${assessmentId}`)).json()).generationStatus, {
        timeout: 60_000,
      })
      .not.toBe('generating');
    expect((await api.post(`${tool}/api/assessments/${assessmentId}/assign`, { headers })).status()).toBe(200);

    // Back on the picking page: the list refreshed, the assessment picked.
    const add = teacherWindow.getByRole('button', { name: `Add Forces check ${run}` });
    await expect
      .poll(
        async () => {
          await teacherWindow.getByRole('button', { name: 'Refresh the list' }).click();
          return add.isEnabled().catch(() => false);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect(teacherWindow.getByText('This course’s class')).toBeVisible();
    // The page is on the tool's PUBLIC_URL origin (localhost), which the run's own axe scans skip: judged here.
    const axe = await new AxeBuilder({ page: teacherWindow }).withTags(WCAG_TAGS).setLegacyMode(true).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await expectTargetSizes(teacherWindow);
    await add.click();
    // The tool's page posts the signed answer to the LMS, which verifies it and shows the item.
    await expect(teacherWindow.getByRole('heading', { name: 'Content received' })).toBeVisible({ timeout: 20_000 });
    await expect(teacherWindow.locator('#received')).toHaveText(`Forces check ${run}`);
    const received = (await (await fetch(`${platform.info.url}/deep-links`)).json()) as {
      items: { custom: Record<string, string> }[];
    }[];
    expect(received.at(-1)!.items[0]!.custom).toEqual({ checkpoint_assessment_id: assessmentId });

    // A learner launches that resource link (another browser): on taking the assessment.
    const studentContext = await browser.newContext();
    const studentWindow = await launchAndOpen(studentContext, {
      user: `lms-student-${run}`,
      role: 'learner',
      context: course,
      content_item: String(received.length - 1),
    });
    await expect(studentWindow).toHaveURL(new RegExp(`/assessment/${assessmentId}$`));
    await expect(studentWindow.getByText(`Forces check ${run}`).first()).toBeVisible();

    // The student takes it in the browser and submits; the LMS's gradebook column gets the score (AGS).
    for (let i = 1; i <= 2; i++) {
      await expect(studentWindow.getByText(`Question ${i} of 2`)).toBeVisible();
      await studentWindow.getByRole('radio', { name: 'True', exact: true }).check();
      if (i < 2) await studentWindow.getByRole('button', { name: 'Next' }).click();
    }
    await studentWindow.getByRole('button', { name: 'Submit Assessment' }).click();
    await studentWindow
      .getByRole('dialog', { name: 'Submit your answers?' })
      .getByRole('button', { name: 'Submit now' })
      .click();
    await expect(studentWindow.getByText('Assessment submitted successfully!')).toBeVisible();
    const result = (await (await studentWindow.request.get(`${tool}/api/student/results`)).json()) as {
      assessmentId: string;
      earnedPoints: string;
      totalPoints: string;
    }[];
    const mine = result.find((r) => r.assessmentId === assessmentId)!;
    const lineitem = `/lineitems/content-item-${received.length - 1}/lineitem`;
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${platform!.info.url}/scores`)).json()) as { lineitem: string; userId: string }[]).find(
            (s) => s.lineitem === lineitem && s.userId === `lms-student-${run}`,
          ),
        { timeout: 30_000 },
      )
      .toMatchObject({
        scoreGiven: Number(mine.earnedPoints),
        scoreMaximum: Number(mine.totalPoints),
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
      });
    await studentContext.close();
  });
});
