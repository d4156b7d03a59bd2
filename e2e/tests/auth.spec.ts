import { expect } from '@playwright/test';
import { newUser, signIn, signOut, signUp, test } from './helpers';

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
    await page.getByRole('button', { name: 'Sign In' }).click();
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
    await page.getByRole('button', { name: 'Sign In' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Login Failed' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Invalid email or password');
    await expect(page).toHaveURL(/\/auth/);
  });

  test('when the email is already registered, then the Signup Failed toast says so', async ({ page, browser }) => {
    const user = newUser();
    const other = await browser.newPage();
    await signUp(other, user);
    await other.close();
    await page.goto('/auth?mode=signup');
    await page.getByLabel('First Name').fill('Again');
    await page.getByLabel('Last Name').fill('Again');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Confirm Password').fill(user.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Signup Failed' });
    await expect(toast).toContainText('An account with this email already exists');
  });

  test('when simple-login signs up, then the login tab opens with the email filled in', async ({ page }) => {
    const user = newUser('simple');
    await page.goto('/simple-login?mode=signup');
    await page.getByLabel('First Name').fill(user.firstName);
    await page.getByLabel('Last Name').fill(user.lastName);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Please select a role')).toBeVisible();
    await page.getByLabel('Student', { exact: true }).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Account created successfully. Please log in.')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Email')).toHaveValue(user.email);
  });
});
