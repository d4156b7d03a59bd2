// JavaScript budgets of the web app (docs/architecture.md, "JavaScript per route"): what each route makes the browser download, gzipped,
// against its budget. A route's JavaScript is the entry chunk with its static imports plus the lazy
// modules the route renders (web/src/routes/routeTable.ts, the table AppRoutes builds its lazy pages
// from) with theirs; modules a page loads later on demand (a modal opened by a click) are not
// counted. Reads a Vite build's manifest.
//   node scripts/web-budgets.mjs [dist] [--explain <route text>] [--table <routeTable.ts>]
//   (dist defaults to web/dist; exit 1 over budget, when a screen of the route table is in no route
//   or not in the build; --explain lists the files of the routes whose name contains the text)
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1024;
const ANY_ROUTE_KB = 150;

/** The pre-rendered landing page the gateway sends a visitor without a session at /. */
const LANDING = { route: '/ (signed out: landing.html)', html: 'landing.html', budgetKb: 90 };

/** The route table (SCREENS, ROUTES) that AppRoutes builds its lazy pages from. */
const ROUTE_TABLE = path.join(root, 'web/src/routes/routeTable.ts');
/** Where a lazy import may be written: AppRoutes takes its pages from the table, never on its own. */
const APP_ROUTES = path.join(root, 'web/src/routes/AppRoutes.tsx');

/** The lazy imports of a file under web/src/routes as paths under web/src ('../features/x/Y' → 'features/x/Y'). */
export function lazyImportsOf(source) {
  const found = new Set();
  for (const [, specifier] of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.add(path.posix.join('routes', specifier));
  }
  return found;
}

/** The table's screens, each checked against the module its loader imports, and its routes. */
async function routeTable(table = ROUTE_TABLE) {
  const { tsImport } = await import('tsx/esm/api');
  const { SCREENS, ROUTES } = await tsImport(pathToFileURL(table).href, import.meta.url);
  const problems = [];
  const source = readFileSync(table, 'utf8');
  for (const [, key, specifier] of source.matchAll(/'([^']+)':\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\)/g)) {
    if (path.posix.join('routes', specifier) !== key)
      problems.push(`routeTable: the screen '${key}' loads ${specifier}`);
  }
  for (const modulePath of lazyImportsOf(source)) {
    if (!(modulePath in SCREENS)) problems.push(`routeTable: ${modulePath} is imported lazily outside SCREENS`);
  }
  for (const modulePath of lazyImportsOf(readFileSync(APP_ROUTES, 'utf8'))) {
    problems.push(`AppRoutes imports ${modulePath} lazily itself: add it to SCREENS in routeTable.ts`);
  }
  return { screens: Object.keys(SCREENS), routes: ROUTES, problems };
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

export async function measure(dist, table = ROUTE_TABLE) {
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
  const { screens, routes, problems } = await routeTable(table);
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
  for (const { route, modules, budgetKb = ANY_ROUTE_KB } of routes) {
    const files = new Set(entry);
    for (const modulePath of modules) {
      declared.add(modulePath);
      const key = manifestKey(manifest, modulePath);
      if (!key) problems.push(`${route}: ${modulePath} is not a chunk of this build`);
      else staticClosure(manifest, key, files);
    }
    rows.push({ route, bytes: sizeOf(files), budgetKb: Math.min(budgetKb, ANY_ROUTE_KB), chunks: files.size, files });
  }

  for (const modulePath of screens) {
    if (!declared.has(modulePath)) problems.push(`the screen ${modulePath} is in no route of routeTable.ts`);
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
  const tableAt = args.indexOf('--table');
  const table = tableAt >= 0 ? path.resolve(args.splice(tableAt, 2)[1]) : ROUTE_TABLE;
  const dist = path.resolve(args[0] ?? path.join(root, 'web/dist'));
  const { rows, problems, sizeOf } = await measure(dist, table);
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
