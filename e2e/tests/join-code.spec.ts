// Joining signed out: the code is checked before the visitor is sent to sign in, so a
// wrong one is said at once; the landing page offers students a sign-in of their own.
import { expect } from '@playwright/test';
import { apiPost, newUser, signUp, test } from './helpers';

test('when a signed-out visitor enters a wrong code, then Class not found shows at once; a right one leads to sign-in', async ({
  page,
  browser,
}) => {
  const teacher = await (await browser.newContext()).newPage();
  await signUp(teacher, newUser('join-teacher'));
  const cls = await apiPost<{ joinCode: string }>(teacher, '/api/classes', {
    name: 'Chemistry 9',
    subject: 'Science',
    period: '1',
  });

  await page.goto('/');
  // The landing page: Student Login beside Teacher Login.
  await expect(
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Student Login' }),
  ).toHaveAttribute('href', '/auth?mode=login');
  await page.getByRole('link', { name: 'Join a Class' }).first().click();
  await expect(page).toHaveURL(/\/join-class$/);

  const wrong = cls.joinCode === 'ZZZZZZZ' ? 'YYYYYYY' : 'ZZZZZZZ';
  await page.getByLabel('Class Code').fill(wrong);
  await page.getByRole('button', { name: 'Join Class' }).click();
  await expect(page.getByRole('alert')).toContainText('Class not found. Please check the join code and try again.');
  await expect(page).toHaveURL(/\/join-class$/);

  await page.getByLabel('Class Code').fill(cls.joinCode.toLowerCase());
  await page.getByRole('button', { name: 'Join Class' }).click();
  await expect(page).toHaveURL(/\/auth\?mode=login&next=join$/);
  await expect(page.getByText('Sign in or create a student account to join Chemistry 9.')).toBeVisible();

  // The check itself, as a script would call it: the name and nothing else.
  const lookup = await page.request.get(`/api/classes/join-code?joinCode=${cls.joinCode}`);
  expect(lookup.status()).toBe(200);
  expect(await lookup.json()).toEqual({ className: 'Chemistry 9' });
});
