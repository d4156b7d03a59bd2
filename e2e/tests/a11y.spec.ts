// Accessibility beyond what axe sees (every test scans its screens: helpers.ts): the keyboard path
// past the navigation.
import { expect } from '@playwright/test';
import { wcag } from './a11y-checks';
import { checkA11y, newUser, signUp, test } from './helpers';

test(
  'when a signed-in user presses Tab first, then the skip link shows and Enter moves the focus to the main content',
  {
    annotation: wcag('2.4.1'),
  },
  async ({ page }) => {
    await signUp(page, newUser('skip'));
    await page.goto('/assessments');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).not.toBeInViewport();

    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await checkA11y(page, 'skip link focused');

    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
    await expect(page).toHaveURL(/\/assessments$/);
    // The next Tab goes into the page's content, past the navigation.
    await page.keyboard.press('Tab');
    const next = page.locator(':focus');
    expect(await next.evaluate((el) => Boolean(el.closest('main')))).toBe(true);
  },
);

test('when a student opens the user menu, then there is no plan or billing, and /subscription is not theirs', async ({
  page,
}) => {
  await signUp(page, newUser('student'), 'Student');
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();
  await checkA11y(page, 'student user menu open');
  await expect(page.getByText(/Current Plan/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Upgrade Plan' })).toHaveCount(0);
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByLabel('Assessment Reminders')).toBeVisible();
  await expect(page.getByLabel('Student Submissions')).toHaveCount(0);
});
