// NRPS in the browser: the district admin registers the LMS (the PyPI package lti1p3platform,
// e2e/lti/platform.py); an instructor launches the course from the LMS with the NRPS claim; the
// tool creates the class and, in the background, brings the course's learners onto its roster
// before any of them has launched. The teacher opens Checkpoint from the launch page, sees the
// learners enrolled and syncs the roster again from the class page: nobody added twice, the
// inactive member skipped with its reason (docs/adr/014-lti.md, "Rosters from the LMS").
import { expect } from '@playwright/test';
import { test } from './helpers';
import { registeredPlatform, runId } from './lti';
import { setRoster, type RunningPlatform } from '../lti/platform';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';
let platform: RunningPlatform | undefined;

test.describe('LTI roster from the LMS (NRPS)', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test.afterAll(async () => {
    await platform?.stop();
  });

  test('when an instructor launches the course, then its class is created with the course’s learners on its roster', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    // The tool's public origin is PUBLIC_URL (http://localhost:PORT in the all-in-one).
    const port = new URL(baseURL!).port;
    const tool = `http://localhost:${port}`;
    platform = await registeredPlatform(page, tool, baseURL!);
    const run = runId();

    const course = `course-${run}`;
    await setRoster(platform.info, course, {
      pageSize: 2,
      members: [
        { user_id: `t-${run}`, roles: [`${LIS}Instructor`], name: 'Pat Teacher' },
        { user_id: `l1-${run}`, roles: [`${LIS}Learner`], given_name: 'Ada', family_name: 'Roster' },
        { user_id: `l2-${run}`, roles: [`${LIS}Learner`], given_name: 'Grace', family_name: 'Roster' },
        { user_id: `l3-${run}`, roles: [`${LIS}Learner`], status: 'Inactive', name: 'Gone Learner' },
      ],
    });

    // The LMS (another browser context: no Checkpoint session) launches the tool.
    const lms = await (await page.context().browser()!.newContext()).newPage();
    await lms.goto(
      `${platform.info.url}/start?${new URLSearchParams({ user: `t-${run}`, role: 'instructor', context: course, context_title: `Roster ${run}`, nrps: '1' })}`,
    );
    await expect(lms.getByText('was created in Checkpoint for this course')).toBeVisible();
    const [teacherPage] = await Promise.all([
      lms.context().waitForEvent('page'),
      lms.getByRole('link', { name: 'Open Checkpoint' }).click(),
    ]);
    await expect(teacherPage).toHaveURL(/\/class\/[0-9a-f-]{36}$/);
    await expect(teacherPage.getByRole('heading', { level: 1, name: `Roster ${run}` })).toBeVisible();
    // The learners arrive in the background, before any of them launches.
    await expect(async () => {
      await teacherPage.reload();
      await expect(teacherPage.getByTestId('stat-Students Enrolled')).toHaveText('2', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });

    const roster = teacherPage.getByRole('region', { name: 'LMS roster' });
    await expect(roster).toContainText(`Roster ${run}`);
    await roster.getByRole('button', { name: 'Sync roster from LMS' }).click();
    await expect(roster.getByRole('status')).toContainText('0 added, 2 already in the class, 2 skipped');
    await expect(roster.getByRole('status')).toContainText('Gone Learner: inactive in the LMS');
  });
});
