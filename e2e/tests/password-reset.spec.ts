// Forgot password, in the browser: the all-in-one runs without SMTP_URL, so its local SMTP server
// keeps the mail in DATA_DIR/mailbox (index.json), where this test reads the link.
import { expect } from '@playwright/test';
import { newUser, signIn, signOut, signUp, test } from './helpers';
import { mailedLink, pathOf } from './mailbox';

test.describe('password reset', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test('when a user forgets the password, then the mailed link sets a new one to sign in with', async ({ page }) => {
    const user = newUser();
    await signUp(page, user);
    // The sign-up link proved the address: no banner asks to verify it.
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();
    await expect(page.getByText('Please verify your email address')).toBeHidden();
    await signOut(page);

    await page.goto('/auth?mode=login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(`If an account exists for ${user.email}`)).toBeVisible();

    await page.goto(pathOf(await mailedLink(user.email, '/reset-password')));
    await page.getByLabel('New Password').fill('a-new-secret-2');
    await page.getByLabel('Confirm Password').fill('a-new-secret-2');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page).toHaveURL(/\/auth\?mode=login$/);
    await expect(page.getByText('Password updated').first()).toBeVisible();

    // The old password no longer works; the new one does, and the address is still verified.
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Login Failed').first()).toBeVisible();
    await signIn(page, { ...user, password: 'a-new-secret-2' });
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();
    await expect(page.getByText('Please verify your email address')).toBeHidden();
  });
});
