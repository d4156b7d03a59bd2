import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import type { Browser } from '@playwright/test';
import { mailedLink, pathOf } from './mailbox';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: what axe checks on every screen the tests visit. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The page moved on or closed while axe ran (the new document has no axe script: reading 'run' or 'runPartial'). */
const GONE =
  /Execution context was destroyed|Target (page, context or browser )?(has been )?closed|frame was detached|navigat|reading 'run(Partial)?'|axe is not defined/i;

/**
 * The accessibility scans of one test: every page of every context the test opens is scanned once
 * its navigation has settled (one scan per URL), and once more at the end of the test.
 */
class AxeScans {
  readonly problems: string[] = [];
  /** WCAG success criterion (`1.4.3`) → the axe rules that checked it and passed on some screen. */
  readonly criteria = new Map<string, Set<string>>();
  private readonly scanned = new Set<string>();
  private readonly contexts = new WeakSet<BrowserContext>();
  private readonly pages = new Set<Page>();
  private readonly timers = new Map<Page, ReturnType<typeof setTimeout>>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly origin: string) {}

  watch(context: BrowserContext): void {
    if (this.contexts.has(context)) return;
    this.contexts.add(context);
    for (const page of context.pages()) this.watchPage(page);
    context.on('page', (page) => this.watchPage(page));
  }

  private watchPage(page: Page): void {
    this.pages.add(page);
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      // History navigations of the app come in bursts (a redirect, a replaced query): scan the last.
      clearTimeout(this.timers.get(page));
      this.timers.set(
        page,
        setTimeout(() => void this.scan(page), 300),
      );
    });
    page.on('close', () => {
      clearTimeout(this.timers.get(page));
      this.pages.delete(page);
    });
  }

  /**
   * Until the scans under way are done, the page's pending one included (run now): before a test
   * lays something passing over the screen (a menu), so that the screen is judged as it settled.
   */
  async idle(page: Page): Promise<void> {
    const timer = this.timers.get(page);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.timers.delete(page);
      void this.scan(page);
    }
    await this.queue;
  }

  /** Scans the page's current screen unless this URL was scanned already (label: always scan). */
  scan(page: Page, label?: string): Promise<string[]> {
    const result = this.queue
      .then(() => this.run(page, label))
      .catch((error: unknown) => {
        const problem = `${label ?? page.url()}: axe failed: ${String(error)}`;
        this.problems.push(problem);
        return [problem];
      });
    this.queue = result.then(() => undefined);
    return result;
  }

  private async run(page: Page, label?: string): Promise<string[]> {
    if (page.isClosed()) return [];
    const url = new URL(page.url());
    // The local mailbox page and other origins (an identity provider) are not the product's screens.
    if (url.origin !== this.origin || url.pathname.startsWith('/_mailbox')) return [];
    const key = label ?? `${url.pathname}${url.search}`;
    if (!label && this.scanned.has(key)) return [];
    this.scanned.add(key);
    await settled(page);
    let results: Awaited<ReturnType<AxeBuilder['analyze']>>;
    try {
      results = await analyze(page);
    } catch (error) {
      // The test closed the page (or its context) while axe ran: there is no screen left to judge.
      if (page.isClosed()) return [];
      if (!GONE.test(String(error))) throw error;
      // A new document arrived while axe ran (its script went with the old one): once more, on it.
      await settled(page);
      try {
        results = await analyze(page);
      } catch (again) {
        if (page.isClosed() || GONE.test(String(again))) return [];
        throw again;
      }
    }
    const found = results.violations.map(
      (v) =>
        `${key}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`)
          .join('; ')}`,
    );
    this.problems.push(...found);
    for (const rule of results.passes)
      for (const tag of rule.tags) {
        const sc = /^wcag(\d)(\d)(\d+)$/.exec(tag);
        if (!sc) continue;
        const criterion = `${sc[1]}.${sc[2]}.${sc[3]}`;
        this.criteria.set(criterion, (this.criteria.get(criterion) ?? new Set()).add(rule.id));
      }
    return found;
  }

  /** Waits for the scans under way and scans every open page once more. */
  async finish(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    await this.queue;
    for (const page of this.pages) {
      if (!page.isClosed()) await this.scan(page, `${new URL(page.url()).pathname} (end of test)`);
    }
  }
}

// Legacy mode: axe runs in the page itself instead of opening a page of its own in the context
// (cheaper, and possible in the one-page contexts of browser.newPage()).
const analyze = (page: Page) => new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze();

/** A screen is ready to scan once its spinners are gone (or after 5 s, scanned as it is). */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  await page
    .locator('.spinner-border:visible, [aria-busy="true"]:visible')
    .first()
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => undefined);
}

let current: AxeScans | undefined;

/**
 * The tests' `test`: every screen a test visits, in any of its pages, is checked with axe
 * (WCAG_TAGS) after its navigation settles and at the end of the test; any violation fails it.
 */
export const test = base.extend<{ axeScans: AxeScans }>({
  axeScans: [
    async ({ page, browser, baseURL }, use) => {
      const scans = new AxeScans(new URL(baseURL ?? 'http://127.0.0.1').origin);
      scans.watch(page.context());
      // Pages of contexts the test makes itself (another user signed in) are watched too, and
      // closed when it ends: the browser is shared by the whole run, and their pages would go on
      // polling the server through every later test.
      const made: BrowserContext[] = [];
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const context = await newContext(...args);
        made.push(context);
        scans.watch(context);
        return context;
      };
      current = scans;
      try {
        await use(scans);
        await scans.finish();
      } finally {
        current = undefined;
        browser.newContext = newContext;
        await Promise.all(made.map((context) => context.close().catch(() => undefined)));
      }
      expect(scans.problems, 'accessibility violations (axe, WCAG 2.2 AA)').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Checks a state that no navigation marks (an open dialog, a result shown in place): fails at
 * once on any violation.
 */
export async function checkA11y(page: Page, label: string): Promise<void> {
  const scans = current ?? new AxeScans(new URL(page.url()).origin);
  const found = await scans.scan(page, label);
  expect(found, `accessibility violations in ${label}`).toEqual([]);
}

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

/**
 * Fills the sign-up form on screen (/auth?mode=signup, or the Sign Up tab already open) and submits
 * it. It creates no account: whatever the address (new, registered, a district's), the form says
 * "Check your email" and the server mails the address a sign-up link, or a note that it has an
 * account (docs/security.md).
 */
export async function submitSignUp(page: Page, user: TestUser, role: 'Teacher' | 'Student' = 'Teacher'): Promise<void> {
  await page.getByLabel('First Name').fill(user.firstName);
  await page.getByLabel('Last Name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  // /simple-login asks for the password once.
  const confirm = page.getByLabel('Confirm Password');
  if (await confirm.count()) await confirm.fill(user.password);
  await page.getByLabel(role, { exact: true }).check();
  // A student says their age band (docs/adr/015); under 13 signs up with a school's address only.
  if (role === 'Student') await page.getByLabel('13 or older', { exact: true }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  const sent = page.getByRole('status', { name: 'Check your email' });
  await expect(sent).toContainText('Check your email');
  await expect(sent).toContainText(user.email.toLowerCase());
  await expect(sent).toContainText('open the link we sent to finish creating your account');
  // Still on the sign-in page, signed out: no account exists until the link is opened.
  await expect(page).toHaveURL(/\/(auth|simple-login)\?/);
}

const SIGNED_UP_TOAST = 'Account created successfully! Logging you in...';

/**
 * Opens the sign-up link mailed to `user` in `page`, as its owner does: /verify-email creates the
 * account (in the district owning the address's domain, else in a new individual space), signs in
 * and says so for 1 s; a join code entered while signed out in this tab is used next, else / loads.
 * The page itself notes the toast as it appears (in this tab's sessionStorage, which outlives the
 * load that follows): a check from the test can miss so short a window on a busy machine.
 */
export async function openSignUpLink(page: Page, user: TestUser): Promise<void> {
  // A key of this call's own: the note is read, never taken (a read whose answer the next page's
  // load cut off would otherwise have taken it unseen), and an earlier call's note does not count.
  const key = `e2e:signed-up-toast:${randomUUID()}`;
  await page.addInitScript(
    ({ toast, key }) => {
      if (location.pathname !== '/verify-email') return;
      new MutationObserver((_, observer) => {
        if (!document.body?.textContent?.includes(toast)) return;
        sessionStorage.setItem(key, toast);
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true, characterData: true });
    },
    { toast: SIGNED_UP_TOAST, key },
  );
  await page.goto(pathOf(await mailedLink(user.email, '/verify-email')));
  const seen = () => page.evaluate((key) => sessionStorage.getItem(key), key).catch(() => null); // the app was loading the next page
  await expect.poll(seen, { message: `the toast "${SIGNED_UP_TOAST}"` }).toBe(SIGNED_UP_TOAST);
}

/** Sign up through /auth and the mailed link; the new user lands on / signed in (the app's full load). */
export async function signUp(page: Page, user: TestUser, role: 'Teacher' | 'Student' = 'Teacher'): Promise<void> {
  await page.goto('/auth?mode=signup');
  await submitSignUp(page, user, role);
  await openSignUpLink(page, user);
  await expect(page).toHaveURL(/\/$/);
}

export async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto('/auth?mode=login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  // An admin lands on the admin dashboard, anyone else on /.
  await expect(page).toHaveURL(/\/(admin)?$/);
}

export async function signOut(page: Page): Promise<void> {
  // The screen's own scan first: opened over it, the menu covers what is below (axe: obscured targets).
  await current?.idle(page);
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
