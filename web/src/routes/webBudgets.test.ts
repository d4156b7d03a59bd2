// scripts/web-budgets.mjs (run by `npm test` on the web build): it must fail a route over budget
// and a lazy page missing from its route table. Runs it on small hand-made builds.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts/web-budgets.mjs');
const lazyModules = [
  ...readFileSync(path.join(import.meta.dirname, 'routeTable.ts'), 'utf8').matchAll(/import\('\.\.\/([^']+)'\)/g),
].map(([, modulePath]) => `src/${modulePath}.tsx`);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A build whose entry weighs `entryBytes` of incompressible code; every page chunk is tiny. */
function fakeBuild(entryBytes: number, pages = lazyModules, landingScript = false): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'budgets-'));
  dirs.push(dist);
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  // Random bytes: gzip cannot shrink them, so the measured figure is the size written (+ a header).
  writeFileSync(path.join(dist, 'assets/entry.js'), randomBytes(entryBytes));
  const manifest: Record<string, { file: string; imports?: string[] }> = {
    'index.html': { file: 'assets/entry.js' },
  };
  pages.forEach((key, i) => {
    writeFileSync(path.join(dist, `assets/page${i}.js`), `export const page${i} = 1;`);
    manifest[key] = { file: `assets/page${i}.js`, imports: ['index.html'] };
  });
  writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
  const script = landingScript ? '<script type="module" src="/assets/entry.js"></script>' : '';
  writeFileSync(path.join(dist, 'landing.html'), `<!doctype html><head>${script}</head><div id="root"></div>`);
  return dist;
}

function check(dist: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [script, dist, ...args], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('web budgets check', () => {
  it('when every route is within its budget, then it passes and prints each route with its figure', () => {
    const { status, out } = check(fakeBuild(50 * 1024));
    expect(out).toMatch(
      /\/assessment\/:id \(taking page\), \/assessment-try\/:id \(a teacher trying it\)\s+50\.\d KB {2}\(budget 120 KB/,
    );
    expect(out).toMatch(/\/ \(signed out: landing\.html\)\s+0\.0 KB {2}\(budget 90 KB/);
    expect(status).toBe(0);
  });

  it('when the entry pushes the taking page over 120 KB, then it fails naming that route only', () => {
    const { status, out } = check(fakeBuild(125 * 1024));
    expect(status).toBe(1);
    expect(out).toMatch(
      /\/assessment\/:id \(taking page\), \/assessment-try\/:id \(a teacher trying it\): 12\d\.\d KB is over its 120 KB budget/,
    );
    expect(out).not.toMatch(/\/reports: .* over/);
  });

  it('when the landing page loads a script over 90 KB, then it fails', () => {
    const { status, out } = check(fakeBuild(95 * 1024, lazyModules, true));
    expect(status).toBe(1);
    expect(out).toMatch(/\/ \(signed out: landing\.html\): 9\d\.\d KB is over its 90 KB budget/);
  });

  it('when the landing inside the app (a session that expired on /) loads over 90 KB, then it fails', () => {
    const { status, out } = check(fakeBuild(95 * 1024));
    expect(status).toBe(1);
    expect(out).toMatch(/\/ \(signed out, in the app\): 9\d\.\d KB is over its 90 KB budget/);
    expect(out).not.toMatch(/trying it\): .* over/);
  });

  it('when a lazy page of AppRoutes is not in the build, then the route listing it fails', () => {
    const { status, out } = check(
      fakeBuild(
        10 * 1024,
        lazyModules.filter((m) => !m.includes('ReportsPage')),
      ),
    );
    expect(status).toBe(1);
    expect(out).toContain('/reports: features/reports/ReportsPage is not a chunk of this build');
  });

  /** routeTable.ts with `change` made to it, written next to a build. */
  function changedTable(dist: string, change: (source: string) => string): string {
    const table = path.join(dist, 'routeTable.ts');
    writeFileSync(table, change(readFileSync(path.join(import.meta.dirname, 'routeTable.ts'), 'utf8')));
    return table;
  }
  const NOT_FOUND = "'features/notFound/NotFoundPage': () => import('../features/notFound/NotFoundPage'),";

  it('when a screen of the route table is in no route, then it fails naming that screen', () => {
    const dist = fakeBuild(10 * 1024);
    const table = changedTable(dist, (source) =>
      source.replace(
        NOT_FOUND,
        `${NOT_FOUND}\n  'features/notFound/NotFoundPage.tsx': () => import('../features/notFound/NotFoundPage.tsx'),`,
      ),
    );
    const { status, out } = check(dist, '--table', table);
    expect(status).toBe(1);
    expect(out).toContain('the screen features/notFound/NotFoundPage.tsx is in no route of routeTable.ts');
  });

  it('when a screen key is not the module its loader imports, then it fails', () => {
    const dist = fakeBuild(10 * 1024);
    const table = changedTable(dist, (source) =>
      source.replace(NOT_FOUND, "'features/notFound/NotFoundPage': () => import('../features/landing/LandingPage'),"),
    );
    const { status, out } = check(dist, '--table', table);
    expect(status).toBe(1);
    expect(out).toContain(
      "routeTable: the screen 'features/notFound/NotFoundPage' loads ../features/landing/LandingPage",
    );
  });
});
