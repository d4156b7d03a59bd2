// Becoming a member of a district in the browser, as a person does (docs/security.md, "District
// membership"): the sign-up form at the district's domain says "Check your email"; the link in the
// mail opens /verify-email, which creates the account in the district and signs in.
import { expect, type Page } from '@playwright/test';
import type { TestUser } from './helpers';
import { mailedLink, pathOf } from './mailbox';

export async function signUpInDistrict(
  page: Page,
  user: TestUser,
  role: 'Teacher' | 'Student' = 'Teacher',
): Promise<void> {
  await page.goto('/auth?mode=signup');
  await page.getByLabel('First Name').fill(user.firstName);
  await page.getByLabel('Last Name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(user.password);
  await page.getByLabel(role, { exact: true }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  const sent = page.getByRole('status', { name: 'Check your email' });
  await expect(sent).toContainText('Check your email');
  await expect(sent).toContainText(user.email.toLowerCase());
  await expect(sent).toContainText('open the link we sent to finish creating your account');
  // Not signed in yet: the account does not exist until the link is opened.
  await expect(page).toHaveURL(/\/auth\?mode=signup$/);

  await page.goto(pathOf(await mailedLink(user.email, '/verify-email')));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
}
