// axe on every route of the web's route table (#32 item 3), in each language of the interface: each
// route is opened as the user it is for (signed out, teacher, student, district admin) with real
// data behind it (a class, an assessment, a result), and must have no axe violation of WCAG 2.2 A/AA
// (helpers.ts fails the test on any, whatever its impact), its <html lang> in the user's language,
// targets of 24 px and no images of text. A first test checks that ROUTES below is the route table
// of web/src/routes/AppRoutes.tsx, path for path, so that a new route cannot be left out.
// The criteria axe's passing rules check are recorded as the test's annotations (scripts/vpat.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Browser, type Page } from '@playwright/test';
import { expectNoImagesOfText, expectTargetSizes, wcag } from './a11y-checks';
import { apiGet, checkA11y, csrfHeaders, pageInNewContext, signIn, test } from './helpers';
import { classroom, studentOf, submitted } from './journey';
import { setPasswordByMail } from './mailbox';

/** The interface's languages (web/src/i18n/locales.ts); each runs the whole route walk. */
export const SUPPORTED = ['en', 'es'] as const;
type Locale = (typeof SUPPORTED)[number];

type As = 'signed out' | 'teacher' | 'student' | 'new student' | 'admin';

interface Ids {
  classId: string;
  assessmentId: string;
  resultId: string;
}

/** A route of AppRoutes.tsx (its `path`, `*` for the 404 page) and a URL of it to open, as whom. */
interface RouteVisit {
  path: string;
  as: As;
  url: (ids: Ids) => string;
}

const at = (url: string) => (): string => url;

export const ROUTES: readonly RouteVisit[] = [
  // Signed out.
  { path: '/', as: 'signed out', url: at('/') },
  { path: '/auth', as: 'signed out', url: at('/auth?mode=login') },
  { path: '/quick-auth', as: 'signed out', url: at('/quick-auth') },
  { path: '/simple-login', as: 'signed out', url: at('/simple-login') },
  { path: '/login-card', as: 'signed out', url: at('/login-card') },
  { path: '/accept-invitation', as: 'signed out', url: at('/accept-invitation?token=not-a-real-token') },
  { path: '/forgot-password', as: 'signed out', url: at('/forgot-password') },
  { path: '/reset-password', as: 'signed out', url: at('/reset-password?token=not-a-real-token') },
  { path: '/verify-email', as: 'signed out', url: at('/verify-email?token=not-a-real-token') },
  { path: '/join-class', as: 'signed out', url: at('/join-class') },
  { path: '*', as: 'signed out', url: at('/no-such-page') },
  // A teacher with a class, an assigned assessment and a student's result.
  { path: '/', as: 'teacher', url: at('/') },
  { path: '/dashboard', as: 'teacher', url: at('/dashboard') },
  { path: '/profile', as: 'teacher', url: at('/profile') },
  { path: '/settings', as: 'teacher', url: at('/settings') },
  { path: '/subscription', as: 'teacher', url: at('/subscription') },
  { path: '/classes', as: 'teacher', url: at('/classes') },
  { path: '/class/:id', as: 'teacher', url: (ids) => `/class/${ids.classId}` },
  { path: '/assessments', as: 'teacher', url: at('/assessments') },
  { path: '/assessment-preview/:id', as: 'teacher', url: (ids) => `/assessment-preview/${ids.assessmentId}` },
  { path: '/assessment-edit/:id', as: 'teacher', url: (ids) => `/assessment-edit/${ids.assessmentId}` },
  { path: '/assessment-try/:id', as: 'teacher', url: (ids) => `/assessment-try/${ids.assessmentId}` },
  { path: '/bank', as: 'teacher', url: at('/bank') },
  { path: '/students', as: 'teacher', url: at('/students') },
  { path: '/reports', as: 'teacher', url: at('/reports') },
  { path: '/assessment-results/:id', as: 'teacher', url: (ids) => `/assessment-results/${ids.assessmentId}` },
  // An LMS's deep-linking request that is not pending (its list is judged in lti-deep-linking.spec).
  { path: '/lti/deep-linking/:id', as: 'teacher', url: at('/lti/deep-linking/00000000-0000-4000-8000-000000000031') },
  { path: '/interactive-support/:resultId', as: 'teacher', url: (ids) => `/interactive-support/${ids.resultId}` },
  { path: '*', as: 'teacher', url: at('/no-such-page') },
  // A student who took the assessment, and one about to.
  { path: '/', as: 'student', url: at('/') },
  { path: '/student-dashboard', as: 'student', url: at('/student-dashboard') },
  { path: '/join-class', as: 'student', url: at('/join-class') },
  { path: '/browse-classes', as: 'student', url: at('/browse-classes') },
  { path: '/support/:id/:type', as: 'student', url: (ids) => `/support/${ids.assessmentId}/support` },
  { path: '/support-content/:resultId', as: 'student', url: (ids) => `/support-content/${ids.resultId}` },
  { path: '/assessment/:id', as: 'new student', url: (ids) => `/assessment/${ids.assessmentId}` },
  // The demo district's admin.
  { path: '/admin', as: 'admin', url: at('/admin') },
  { path: '/admin/users', as: 'admin', url: at('/admin/users') },
  { path: '/admin/sign-in', as: 'admin', url: at('/admin/sign-in') },
  { path: '/admin/roster', as: 'admin', url: at('/admin/roster') },
  { path: '/admin/privacy', as: 'admin', url: at('/admin/privacy') },
  { path: '/admin/standards', as: 'admin', url: at('/admin/standards') },
  { path: '/admin/common-assessments', as: 'admin', url: at('/admin/common-assessments') },
  { path: '/admin/integrations', as: 'admin', url: at('/admin/integrations') },
];

/**
 * The paths of AppRoutes.tsx: every `path="…"` of a <Route> (those nested under /admin taken as
 * /admin/…), the index routes as `/`, and the signed-out visits of PROTECTED_PATHS (redirects to
 * /auth, not screens) left out.
 */
function routeTablePaths(): Set<string> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const source = readFileSync(path.resolve(here, '../../web/src/routes/AppRoutes.tsx'), 'utf8');
  const paths = new Set<string>();
  for (const match of source.matchAll(/<Route\b([^>]*)>/g)) {
    const attrs = match[1] ?? '';
    const p = /\bpath="([^"]+)"/.exec(attrs)?.[1];
    if (p) paths.add(p.startsWith('/') || p === '*' ? p : `/admin/${p}`);
    else if (/\bindex\b/.test(attrs)) paths.add('/');
  }
  return paths;
}

test('the routes axe visits are the route table of AppRoutes.tsx', { annotation: wcag() }, () => {
  const table = routeTablePaths();
  expect(table.size).toBeGreaterThan(30);
  expect([...new Set(ROUTES.map((r) => r.path))].sort()).toEqual([...table].sort());
});

/** The user's language: the browser's for a signed-out visit; their profile's `locale` once signed in. */
async function useLocale(page: Page, locale: Locale): Promise<void> {
  const response = await page.request.put('/api/auth/user', { data: { locale }, headers: await csrfHeaders(page) });
  expect(response.ok(), `locale ${locale}: ${response.status()}`).toBeTruthy();
}

async function adminPage(browser: Browser): Promise<Page> {
  const page = await pageInNewContext(browser);
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = { email: 'admin@demo.checkpoint.school', password: `admin-pass-${run}` };
  await setPasswordByMail(page, admin.email, admin.password);
  await signIn(page, { ...admin, firstName: '', lastName: '' });
  return page;
}

for (const locale of SUPPORTED) {
  test(
    `axe finds no WCAG 2.2 A/AA violation on any route of the route table (${locale})`,
    {
      annotation: [
        ...wcag('3.1.1', '1.4.5', '2.5.8'),
        // No route plays or shows recorded or live media (read aloud is speech synthesis, on request).
        ...['1.2.1', '1.2.2', '1.2.3', '1.2.4', '1.2.5', '1.4.2'].map((criterion) => ({
          type: 'wcag-na',
          description: `${criterion} no audio or video element on any route`,
        })),
      ],
    },
    async ({ browser, axeScans }, testInfo) => {
      test.setTimeout(480_000);
      // --- The data behind the routes: a class, an assessment, a result; and who opens them.
      const c = await classroom(browser, { questionCount: 2 });
      const student = await studentOf(browser, c.cls.joinCode);
      const resultId = await submitted(student.page, c, 1);
      const newStudent = await studentOf(browser, c.cls.joinCode);
      await expect
        .poll(
          async () =>
            (await apiGet<{ id: string }[]>(newStudent.page, '/api/student/available-assessments')).some(
              (a) => a.id === c.assessment.id,
            ),
          { timeout: 15_000 },
        )
        .toBe(true);
      const signedOut = await (await browser.newContext({ locale })).newPage();
      const pages: Record<As, Page> = {
        'signed out': signedOut,
        teacher: c.teacher,
        student: student.page,
        'new student': newStudent.page,
        admin: await adminPage(browser),
      };
      const signedIn = ['teacher', 'student', 'new student', 'admin'] as const;
      for (const as of signedIn) await useLocale(pages[as], locale);
      const ids: Ids = { classId: c.cls.id, assessmentId: c.assessment.id, resultId };

      // --- Each route: loaded (its heading shown, nothing loading), then judged.
      const failures: string[] = [];
      // The demo district's admin is shared with the other specs: its language goes back after the walk.
      try {
        for (const route of ROUTES) {
          const page = pages[route.as];
          const label = `${route.path} (${route.as}, ${locale})`;
          await page.goto(route.url(ids));
          await expect(page.getByRole('heading', { level: 1 }).first(), `${label}: its heading`).toBeVisible({
            timeout: 20_000,
          });
          await page
            .locator('.spinner-border:visible, [aria-busy="true"]:visible')
            .first()
            .waitFor({ state: 'hidden', timeout: 10_000 })
            .catch(() => undefined);
          await expect(page.locator('html'), `${label}: <html lang>`).toHaveAttribute('lang', new RegExp(`^${locale}`));
          await checkA11y(page, label);
          const media = await page.locator('video, audio, object, embed').count();
          if (media > 0) failures.push(`${label}: ${media} audio, video or embedded object(s)`);
          for (const check of [expectTargetSizes, expectNoImagesOfText])
            await check(page).catch((error: unknown) => failures.push(`${label}: ${String(error).slice(0, 800)}`));
        }
      } finally {
        await useLocale(pages.admin, 'en');
      }
      // The criteria axe's rules checked and found met on these screens, for the report.
      for (const [criterion, rules] of [...axeScans.criteria].sort())
        testInfo.annotations.push({ type: 'wcag', description: `${criterion} axe: ${[...rules].sort().join(', ')}` });
      expect(failures).toEqual([]);
    },
  );
}
