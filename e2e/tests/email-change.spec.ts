// Changing the sign-in email in the browser: Settings asks for the current password, the address
// changes only when the link mailed to the new one is opened (read from the all-in-one's mailbox).
import { expect } from '@playwright/test';
import { newUser, signIn, signOut, signUp, test } from './helpers';
import { mailedLink, pathOf } from './mailbox';

test.describe('email change', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test('when a user changes their email in Settings, then the current password is asked and the new address signs in only after its link is opened', async ({
    page,
  }) => {
    const user = newUser();
    const newEmail = newUser('moved').email;
    await signUp(page, user);
    await page.goto('/settings');
    await expect(page.getByLabel('Current Password')).toBeHidden();
    await page.getByLabel('Email', { exact: true }).fill(newEmail);
    await expect(page.getByText('Changing your email needs your current password.', { exact: false })).toBeVisible();

    // Without the password: the field says what is missing, nothing changes.
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Update Failed').first()).toBeVisible();
    await expect(page.getByLabel('Current Password')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Current Password').fill(user.password);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Confirm your new email').first()).toBeVisible();
    await expect(page.getByTestId('pending-email')).toContainText(newEmail);
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);

    // Until the link is opened, the old address is the one to sign in with.
    await signOut(page);
    await signIn(page, user);
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();

    await page.goto(pathOf(await mailedLink(newEmail, '/verify-email')));
    await expect(page.getByText(newEmail)).toBeVisible();
    await expect(page.getByText('is verified', { exact: false })).toBeVisible();
    // The link page has no menu: back to the app (still signed in as the same account) to sign out.
    await page.goto('/settings');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(newEmail);
    await signOut(page);
    await signIn(page, { ...user, email: newEmail });
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();
  });
});
