// The LTI launch inside the LMS's iframe with third-party cookies blocked (issue #31, item 2): the
// platform (lti1p3platform, e2e/lti/platform.py, on 127.0.0.1: another site than the tool's
// localhost) shows the tool in an iframe of its course page beside its storage frame, and its login
// initiation names that frame (`lti_storage_target`). The tool's cookies in that frame never come
// back (every Set-Cookie of the tool's LTI answers is dropped here, as a browser blocking
// third-party cookies drops them), so the login keeps its browser binding in the platform's storage
// (`lti.put_data`) and the launch reads it back (`lti.get_data`) before it is verified. Where the
// storage refuses, the launch is refused with a page saying to start again from the LMS.
import { expect, type Page } from '@playwright/test';
import { pageInNewContext, test } from './helpers';
import { registeredPlatform, runId } from './lti';
import { type RunningPlatform } from '../lti/platform';
let platform: RunningPlatform | undefined;

/** The LMS's page in a browser whose third-party cookies are blocked: the tool's LTI cookies are never stored. */
async function lmsWithoutThirdPartyCookies(page: Page): Promise<{ cookiesSent: string[] }> {
  const cookiesSent: string[] = [];
  await page.context().route(/\/api\/lti\/(login|launch)/, async (route) => {
    const cookie = route.request().headers()['cookie'];
    if (cookie) cookiesSent.push(cookie);
    const response = await route.fetch({ maxRedirects: 0 });
    const headers = { ...response.headers() };
    delete headers['set-cookie'];
    await route.fulfill({ response, headers });
  });
  return { cookiesSent };
}

test.describe('LTI launch inside the LMS’s iframe', () => {
  // The second journey launches from the platform the first one registered.
  test.describe.configure({ mode: 'serial' });
  test.skip(!!process.env.E2E_BASE_URL, 'registers a loopback platform, which the all-in-one this run starts allows');

  test.afterAll(async () => {
    await platform?.stop();
  });

  test('when third-party cookies are blocked, then the login keeps its binding in the platform’s storage and the launch signs the teacher in', async ({
    page,
    browser,
    baseURL,
  }) => {
    // The tool's public origin is PUBLIC_URL (http://localhost:PORT in the all-in-one).
    platform = await registeredPlatform(page, `http://localhost:${new URL(baseURL!).port}`, baseURL!);
    const run = runId();

    const lms = await pageInNewContext(browser);
    const blocked = await lmsWithoutThirdPartyCookies(lms);
    await lms.goto(
      `${platform.info.url}/course?${new URLSearchParams({ user: `lms-teacher-${run}`, role: 'instructor', context: `course-${run}`, context_title: 'Storage Course' })}`,
    );
    const tool = lms.frameLocator('#tool');
    await expect(tool.getByText('was created in Checkpoint for this course')).toBeVisible();
    await expect(tool.getByRole('link', { name: 'Open Checkpoint' })).toHaveAttribute(
      'href',
      /\/api\/auth\/lti\/handoff\?token=/,
    );
    // No binding cookie ever came back to the tool: the storage carried it.
    expect(blocked.cookiesSent.filter((c) => c.includes('cp_lti_'))).toEqual([]);
    await lms.context().close();
  });

  test('when the platform’s storage refuses, then the launch is refused and says to start again from the LMS', async ({
    browser,
  }) => {
    expect(platform, 'the platform the test before registered').toBeDefined();
    const lms = await pageInNewContext(browser);
    await lmsWithoutThirdPartyCookies(lms);
    await lms.goto(
      `${platform!.info.url}/course?${new URLSearchParams({ user: 'lms-teacher-x', role: 'instructor', storage: 'broken' })}`,
    );
    const tool = lms.frameLocator('#tool');
    await expect(tool.getByRole('status')).toHaveText(/could not check that this browser started the launch/, {
      timeout: 20_000,
    });
    await expect(tool.getByRole('link', { name: 'Open Checkpoint' })).toHaveCount(0);
    await lms.context().close();
  });
});
