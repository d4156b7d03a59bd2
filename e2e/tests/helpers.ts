import { expect, type Page } from '@playwright/test';
import type { Browser } from '@playwright/test';

export interface TestUser {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

let counter = 0;

/** A user nobody has registered yet (unique per run and per call). */
export function newUser(prefix = 'teacher'): TestUser {
  counter += 1;
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}${counter}`;
  return {
    firstName: 'Test',
    lastName: `User${counter}`,
    email: `${prefix}.${id}@example.test`,
    password: 'secret-pass-1',
  };
}

/** Sign up through /auth; the app signs the new user in and lands on / after 1 s. */
export async function signUp(page: Page, user: TestUser, role: 'Teacher' | 'Student' = 'Teacher'): Promise<void> {
  await page.goto('/auth?mode=signup');
  await page.getByLabel('First Name').fill(user.firstName);
  await page.getByLabel('Last Name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(user.password);
  await page.getByLabel(role, { exact: true }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created successfully! Logging you in...')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

export async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto('/auth?mode=login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** A page in a browser context of its own (its own cookies: one signed-in user per page). */
export async function pageInNewContext(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** The CSRF header the API wants on writes, from the page's cp_csrf cookie. */
export async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === 'cp_csrf')?.value;
  expect(token, 'CSRF cookie').toBeTruthy();
  return { 'X-CSRF-Token': decodeURIComponent(token ?? '') };
}

/** POST as the page's signed-in user; fails the test on a non-2xx answer. */
export async function apiPost<T>(page: Page, url: string, data: unknown = {}): Promise<T> {
  const response = await page.request.post(url, { data, headers: await csrfHeaders(page) });
  expect(response.ok(), `POST ${url}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

/** GET as the page's signed-in user; fails the test on a non-2xx answer. */
export async function apiGet<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.ok(), `GET ${url}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

/** A question as GET /api/assessments/{id}/questions returns it to its teacher. */
export interface QuestionJson {
  id: string;
  questionText: string;
  questionType: 'multiple_choice' | 'short_answer' | 'true_false';
  options: string[];
  correctAnswer?: string;
}

const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();

/** An option that is not the correct answer (or a nonsense text for short answers). */
export function wrongAnswer(q: QuestionJson): string {
  if (q.questionType === 'short_answer') return 'definitely wrong';
  const options = q.questionType === 'true_false' ? ['True', 'False'] : q.options;
  const wrong = options.find((o) => norm(o) !== norm(q.correctAnswer));
  if (!wrong) throw new Error(`no wrong option for ${q.questionText}`);
  return wrong;
}

/**
 * Every violation of the content security policy the page reports from now on, across reloads:
 * a listener on document from before the app's first script, reporting to the test.
 */
export async function cspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportCspViolation(v: string): Promise<void> }).reportCspViolation;
      void report(
        `${e.effectiveDirective}: ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
      );
    });
  });
  return violations;
}
