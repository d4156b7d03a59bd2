// LTI Dynamic Registration in the browser: the district admin creates a one-time link in Admin →
// Integrations; the LMS's admin page (a loopback platform serving only the OpenID configuration and
// registration endpoint of the spec's examples, and a page that opens the tool as a platform does:
// lti1p3platform has no dynamic registration) opens it in a new window; the tool registers, its page
// posts the close message back to the platform's page (its script allowed by its CSP hash), and
// the registration is listed in Admin → Integrations.
import { expect } from '@playwright/test';
import { signIn, test } from './helpers';
import { setPasswordByMail } from './mailbox';
import { startPlatform, type LoopbackPlatform } from '../../services/integrations/test/loopback-platform';

const DOMAIN = 'demo.checkpoint.school';
let platform: LoopbackPlatform | undefined;

test.describe('LTI dynamic registration', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test.afterAll(async () => {
    await new Promise((resolve) => (platform ? platform.server.close(resolve) : resolve(undefined)));
  });

  test('when the LMS opens the admin’s registration link, then the tool registers, tells the LMS to close, and is listed', async ({
    page,
    context,
  }) => {
    platform = await startPlatform();
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, admin);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Integrations' }).click();
    await expect(page).toHaveURL(/\/admin\/integrations$/);
    await page.getByRole('button', { name: 'Create a dynamic registration link' }).click();
    const shown = page.getByTestId('lti-registration-link');
    await expect(shown).toContainText('Used once; expires');
    const link = (await shown.locator('code').textContent())!;
    expect(link).toMatch(/\/api\/lti\/register\?rt=[\w-]{43}$/);

    const lms = await context.newPage();
    await lms.goto(`${platform.origin}/admin/register-tool?url=${encodeURIComponent(link)}`);
    const [tool] = await Promise.all([
      lms.waitForEvent('popup'),
      lms.getByRole('button', { name: 'Register tool' }).click(),
    ]);
    await expect(tool.getByRole('heading', { name: 'Checkpoint is registered' })).toBeVisible();
    await expect(lms.locator('#message')).toHaveText('{"subject":"org.imsglobal.lti.close"}');

    await page.reload();
    const row = page
      .getByRole('table', { name: 'LMS registrations' })
      .getByRole('row')
      .filter({ hasText: platform.origin });
    await expect(row).toContainText(/deployment-\d+/);
  });
});
