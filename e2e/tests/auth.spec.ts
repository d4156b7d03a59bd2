import { expect } from '@playwright/test';
import { newUser, openSignUpLink, signIn, signOut, signUp, submitSignUp, test } from './helpers';
import { mailIds, mailWithSubject } from './mailbox';

test.describe('sign-up and sign-in', () => {
  test('when sign-up gets bad input, then every validation message of the spec shows', async ({ page }) => {
    await page.goto('/auth?mode=signup');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await expect(page.getByText('Last name is required')).toBeVisible();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByText('Please confirm your password')).toBeVisible();

    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('123');
    await page.getByLabel('Confirm Password').fill('123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('First name is required')).toBeHidden();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByText('Please confirm your password')).toBeVisible();

    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByLabel('Password', { exact: true }).fill('secret-1');
    await page.getByLabel('Confirm Password').fill('secret-2');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText("Passwords don't match")).toBeVisible();
    await expect(page.getByText('Invalid email address')).toBeHidden();
    await expect(page).toHaveURL(/\/auth/);
  });

  test('when login gets bad input, then the email and password messages show', async ({ page }) => {
    await page.goto('/auth');
    await page.getByLabel('Email').fill('nope');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  });

  test('when a user signs up, signs out and signs in, then each step lands where the spec says', async ({ page }) => {
    const user = newUser();
    await signUp(page, user);
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();

    await signOut(page);
    await expect(page.getByRole('heading', { name: 'Pricing' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Teacher Signup' })).toBeVisible();

    await signIn(page, user);
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();
  });

  test('when the password is wrong, then the Login Failed toast shows the server message', async ({ page }) => {
    await page.goto('/auth?mode=login');
    await page.getByLabel('Email').fill(newUser().email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Login Failed' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Invalid email or password');
    await expect(page).toHaveURL(/\/auth/);
  });

  test('when the email is already registered, then the form says the same "Check your email" and the address gets a note, not a link', async ({
    page,
    browser,
  }) => {
    const user = newUser();
    const other = await browser.newPage();
    await signUp(other, user);
    await other.close();
    const before = await mailIds();
    await page.goto('/auth?mode=signup');
    await submitSignUp(page, { ...user, firstName: 'Again', lastName: 'Again', password: 'another-pass-2' }, 'Student');
    const note = await mailWithSubject(user.email, 'You already have a Checkpoint account', { olderThan: before });
    expect(note.text).toContain('You already have an account with this address');
    expect(note.links.map((link) => new URL(link).pathname)).not.toContain('/verify-email');
    expect(note.text).not.toContain('another-pass-2');
    // Nothing changed: the owner signs in with their own password, still a teacher.
    await signIn(page, user);
    await expect(page.getByRole('heading', { name: 'Assessment Dashboard' })).toBeVisible();
  });

  test('when simple-login signs up, then it says "Check your email" and the mailed link signs the new student in', async ({
    page,
  }) => {
    const user = newUser('simple');
    await page.goto('/simple-login?mode=signup');
    await page.getByLabel('First Name').fill(user.firstName);
    await page.getByLabel('Last Name').fill(user.lastName);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Please select a role')).toBeVisible();
    await submitSignUp(page, user, 'Student');
    await openSignUpLink(page, user);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  });
});
