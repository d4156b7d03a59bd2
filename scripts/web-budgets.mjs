// JavaScript budgets of the web app (docs/architecture.md, "JavaScript per route"): what each route makes the browser download, gzipped,
// against its budget. A route's JavaScript is the entry chunk with its static imports plus the lazy
// modules the route renders (AppRoutes' `lazy(() => import(…))`) with theirs; modules a page loads
// later on demand (a modal opened by a click) are not counted. Reads a Vite build's manifest.
//   node scripts/web-budgets.mjs [dist] [--explain <route text>]
//   (dist defaults to web/dist; exit 1 over budget or when the route table no longer matches
//   AppRoutes; --explain lists the files of the routes whose name contains the text)
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1024;
const ANY_ROUTE_KB = 150;

/** Signed-in pages render inside the lazy app shell (navbar, menus). */
const SHELL = 'components/AppLayout';

/**
 * Route → the lazy modules it renders (paths under web/src, as AppRoutes imports them). Every lazy
 * import of AppRoutes must appear here, so a new page cannot escape its budget.
 */
export const ROUTES = [
  // The landing inside the app (a session that expired on /): held to the landing's budget too.
  { route: '/ (signed out, in the app)', modules: ['features/landing/LandingPage'], budgetKb: 90 },
  { route: '/auth, /quick-auth, /simple-login', modules: ['features/auth/AuthPage'] },
  { route: '/accept-invitation', modules: ['features/auth/AcceptInvitationPage'] },
  { route: '/forgot-password', modules: ['features/auth/ForgotPasswordPage'] },
  { route: '/reset-password', modules: ['features/auth/ResetPasswordPage'] },
  { route: '/verify-email', modules: ['features/auth/VerifyEmailPage'] },
  { route: '/join-class (signed out)', modules: ['features/joinClass/JoinClassPage'] },
  { route: '/ (teacher), /dashboard', modules: [SHELL, 'features/dashboard/TeacherDashboard'] },
  { route: '/ (student), /student-dashboard', modules: [SHELL, 'features/dashboard/StudentDashboard'] },
  { route: '/profile', modules: [SHELL, 'features/profile/ProfilePage'] },
  { route: '/settings', modules: [SHELL, 'features/settings/SettingsPage'] },
  { route: '/subscription', modules: [SHELL, 'features/subscription/SubscriptionPage'] },
  { route: '/join-class', modules: [SHELL, 'features/joinClass/JoinClassPage'] },
  { route: '/browse-classes', modules: [SHELL, 'features/browseClasses/BrowseClassesPage'] },
  { route: '/classes', modules: [SHELL, 'features/classes/ClassesPage'] },
  { route: '/class/:id', modules: [SHELL, 'features/classes/ClassDetailPage'] },
  { route: '/assessments', modules: [SHELL, 'features/assessments/AssessmentsPage'] },
  { route: '/assessment-preview/:id', modules: [SHELL, 'features/assessments/AssessmentPreviewPage'] },
  { route: '/assessment-edit/:id', modules: [SHELL, 'features/assessments/AssessmentEditPage'] },
  {
    route: '/assessment/:id (taking page), /assessment-try/:id (a teacher trying it)',
    modules: [SHELL, 'features/takeAssessment/TakeAssessmentPage'],
    budgetKb: 120,
  },
  { route: '/support/:id/:type', modules: [SHELL, 'features/practice/SupportPracticePage'] },
  { route: '/support-content/:id, /interactive-support/:id', modules: [SHELL, 'features/practice/ResultPracticePage'] },
  { route: '/students', modules: [SHELL, 'features/results/AllStudentsPage'] },
  { route: '/reports', modules: [SHELL, 'features/reports/ReportsPage'] },
  { route: '/assessment-results/:id', modules: [SHELL, 'features/assessmentResults/AssessmentResultsPage'] },
  { route: '/admin', modules: [SHELL, 'features/admin/AdminLayout', 'features/admin/AdminDashboardPage'] },
  { route: '/admin/users', modules: [SHELL, 'features/admin/AdminLayout', 'features/admin/DistrictUsersPage'] },
  {
    route: '/admin/sign-in, /admin/roster, /admin/privacy',
    modules: [SHELL, 'features/admin/AdminLayout', 'features/admin/AdminSections'],
  },
  { route: 'any unknown path (404)', modules: ['features/notFound/NotFoundPage'] },
];

/** The pre-rendered landing page the gateway sends a visitor without a session at /. */
const LANDING = { route: '/ (signed out: landing.html)', html: 'landing.html', budgetKb: 90 };

const APP_ROUTES = path.join(root, 'web/src/routes/AppRoutes.tsx');

/** AppRoutes' lazy imports as paths under web/src ('../features/x/Y' → 'features/x/Y'). */
export function lazyImportsOf(source) {
  const found = new Set();
  for (const [, specifier] of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.add(path.posix.join('routes', specifier));
  }
  return found;
}

function manifestKey(manifest, modulePath) {
  for (const ext of ['.tsx', '.ts', '.jsx', '.js']) {
    const key = `src/${modulePath}${ext}`;
    if (manifest[key]) return key;
  }
  return undefined;
}

/** A chunk's file and, recursively, the files of its static imports. */
function staticClosure(manifest, key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, files);
  return files;
}

/** The script files an HTML page loads at once: module scripts and module preloads. */
function scriptsOfHtml(html) {
  const files = new Set();
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="\/?([^"]+)"/g)) files.add(src);
  for (const [, href] of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="\/?([^"]+)"/g)) files.add(href);
  return files;
}

export function measure(dist) {
  const manifestPath = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build the web app first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const gzipped = new Map();
  const sizeOf = (files) => {
    let total = 0;
    for (const file of files) {
      if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(path.join(dist, file))).length);
      total += gzipped.get(file);
    }
    return total;
  };
  const problems = [];
  const rows = [];

  const landingHtml = path.join(dist, LANDING.html);
  if (existsSync(landingHtml)) {
    const files = scriptsOfHtml(readFileSync(landingHtml, 'utf8'));
    rows.push({ route: LANDING.route, bytes: sizeOf(files), budgetKb: LANDING.budgetKb, chunks: files.size, files });
  } else {
    problems.push(`${LANDING.html} is missing from the build (the landing page is pre-rendered into it)`);
  }

  const entry = staticClosure(manifest, 'index.html');
  const declared = new Set();
  for (const { route, modules, budgetKb = ANY_ROUTE_KB } of ROUTES) {
    const files = new Set(entry);
    for (const modulePath of modules) {
      declared.add(modulePath);
      const key = manifestKey(manifest, modulePath);
      if (!key) problems.push(`${route}: ${modulePath} is not a chunk of this build`);
      else staticClosure(manifest, key, files);
    }
    rows.push({ route, bytes: sizeOf(files), budgetKb: Math.min(budgetKb, ANY_ROUTE_KB), chunks: files.size, files });
  }

  for (const modulePath of lazyImportsOf(readFileSync(APP_ROUTES, 'utf8'))) {
    if (!declared.has(modulePath)) problems.push(`AppRoutes imports ${modulePath} lazily but no route lists it`);
  }
  for (const row of rows) {
    if (row.bytes > row.budgetKb * KB) {
      problems.push(`${row.route}: ${(row.bytes / KB).toFixed(1)} KB is over its ${row.budgetKb} KB budget`);
    }
  }
  return { rows, problems, sizeOf };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const explainAt = args.indexOf('--explain');
  const explain = explainAt >= 0 ? args.splice(explainAt, 2)[1] : undefined;
  const dist = path.resolve(args[0] ?? path.join(root, 'web/dist'));
  const { rows, problems, sizeOf } = measure(dist);
  console.log(`JavaScript per route, gzip (${path.relative(root, dist) || dist}):`);
  for (const row of rows) {
    const kb = (row.bytes / KB).toFixed(1).padStart(6);
    const mark = row.bytes > row.budgetKb * KB ? 'OVER' : 'ok';
    console.log(`  ${row.route.padEnd(52)} ${kb} KB  (budget ${row.budgetKb} KB, ${row.chunks} files)  ${mark}`);
  }
  for (const row of rows.filter((r) => explain !== undefined && r.route.includes(explain))) {
    console.log(`\n${row.route}:`);
    const sized = [...row.files].map((file) => [file, sizeOf([file])]).sort((a, b) => b[1] - a[1]);
    for (const [file, bytes] of sized) console.log(`  ${(bytes / KB).toFixed(1).padStart(6)} KB  ${file}`);
  }
  for (const problem of problems) console.error(`✗ ${problem}`);
  process.exit(problems.length ? 1 : 0);
}
