// `npm test`: every test of the project, on a fresh clone with nothing installed by hand.
// Installs what the tests need (npm packages, Debian's Chromium), runs the static checks, the
// unit/integration/contract tests (vitest, real Postgres and Kafka) and the browser tests
// (Playwright + Chromium), then prints one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bootstrap, root } from './lib/bootstrap.mjs';

const only = process.argv.slice(2); // e.g. `npm test -- vitest` to run one suite
const want = (suite) => only.length === 0 || only.includes(suite);
const results = [];

function step(name, cmd, args, env = {}) {
  console.log(`\n› ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`  (${name} took ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${r.status})`);
  return r.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A free port below the kernel's ephemeral range (32768+): the app's services listen on port 0
 * before the gateway binds this one, so an ephemeral port could be taken by then.
 */
async function freePort() {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 20_000);
    const free = await new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  console.log('› installing Chromium from Debian packages');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium', 'fonts-liberation'], {
    stdio: 'inherit',
    env,
  });
}

const cache = path.join(root, '.cache');
mkdirSync(cache, { recursive: true });
bootstrap();

if (want('lint')) {
  for (const [name, cmd, args] of [
    ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']],
    ['typecheck web', 'npx', ['tsc', '-p', 'web/tsconfig.json']],
    ['typecheck e2e', 'npx', ['tsc', '-p', 'e2e/tsconfig.json']],
    ['eslint', 'npx', ['eslint', '.']],
    ['prettier', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']],
    // The web's API types and endpoints are generated from the services' schemas: still current?
    ['web API current', process.execPath, ['--import', 'tsx', 'scripts/generate-web-api.ts', '--check']],
  ]) {
    const ok = step(name, cmd, args);
    results.push({ suite: name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
  }
}

if (want('vitest')) {
  const out = path.join(cache, 'vitest.json');
  rmSync(out, { force: true });
  const ok = step('vitest', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const report = readJson(out);
  const passed = report?.numPassedTests ?? 0;
  // A file that fails to load has no failed test but is a failure all the same.
  const failed =
    (report?.numFailedTests ?? 0) +
    (report?.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults?.length === 0).length;
  results.push({ suite: 'vitest', passed, failed: failed || (ok ? 0 : Math.max(1, failed)) });
}

if (want('e2e')) {
  ensureChromium();
  const out = path.join(root, 'e2e/test-results/results.json');
  rmSync(out, { force: true });
  const ok = step('browser', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    E2E_PORT: String(await freePort()),
  });
  const stats = readJson(out)?.stats;
  const passed = (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  const failed = stats?.unexpected ?? 0;
  results.push({ suite: 'browser', passed, failed: failed || (ok ? 0 : 1) });
}

if (want('schemathesis')) {
  // Property-based tests of the HTTP API from its OpenAPI document (scripts/schemathesis.ts).
  const out = path.join(cache, 'schemathesis.json');
  rmSync(out, { force: true });
  const ok = step('schemathesis', process.execPath, ['--import', 'tsx', 'scripts/schemathesis.ts', `--summary=${out}`]);
  const report = readJson(out);
  results.push({
    suite: 'schemathesis',
    passed: report?.passed ?? 0,
    failed: report?.failed || (ok ? 0 : 1),
  });
}

if (want('faults')) {
  // Faults survived (e2e/faults, its own vitest config): stack mode with real Kafka while the
  // assessment service is killed, the broker stopped and Postgres crashed; a few minutes.
  const out = path.join(cache, 'faults.json');
  rmSync(out, { force: true });
  const ok = step('faults', 'npx', [
    'vitest',
    'run',
    '-c',
    'e2e/faults/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const report = readJson(out);
  const failed =
    (report?.numFailedTests ?? 0) +
    (report?.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults?.length === 0).length;
  results.push({ suite: 'faults', passed: report?.numPassedTests ?? 0, failed: failed || (ok ? 0 : 1) });
}

console.log('\nSuites:');
for (const r of results) console.log(`  ${r.suite.padEnd(14)} ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
