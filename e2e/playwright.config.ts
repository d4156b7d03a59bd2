// Browser journeys against the all-in-one server (scripts/start.mjs) on a fresh database; DEMO_SEED adds
// the demo district (its accounts and the demo teacher's class) whose members, joining by the mailed
// link, share a tenant (classes.spec).
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
// A port of its own per run (set once in the runner, inherited by workers), so that two runs on
// one machine do not collide: `npm test` passes a free one; otherwise one below the kernel's
// ephemeral range (32768+), where the servers' own port-0 listeners land.
process.env.E2E_PORT ??= String(10_000 + Math.floor(Math.random() * 20_000));
const port = process.env.E2E_PORT;
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;
// Workers load this file too: create the data dir once, in the runner, and pass it on by env.
// Embedded Postgres may run initdb as another (non-root) user, so the dir must be open to it.
function dataDir(): string {
  if (!process.env.E2E_DATA_DIR) {
    process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'checkpoint-e2e-'));
    chmodSync(process.env.E2E_DATA_DIR, 0o777);
  }
  return process.env.E2E_DATA_DIR;
}

export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(here, 'test-results/artifacts'),
  workers: 1,
  retries: 0,
  fullyParallel: false,
  // Each screen a test visits is also scanned by axe (helpers.ts), about 1–2 s a scan.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: path.join(here, 'test-results/results.json') }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    // No fades: axe (helpers.ts) would measure the contrast of a dialog or toast half faded in.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // With E2E_BASE_URL the app is already running elsewhere; otherwise start the all-in-one server.
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'node scripts/start.mjs',
        cwd: path.resolve(here, '..'),
        url: `${baseURL}/healthz`,
        timeout: 240_000,
        reuseExistingServer: false,
        stdout: 'pipe',
        stderr: 'pipe',
        env: {
          PORT: port,
          DATA_DIR: dataDir(),
          DEMO_SEED: 'true',
          RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
          RATE_LIMIT_EMAIL_PER_MINUTE: '1000',
          // The LTI dynamic registration journey's platform listens on 127.0.0.1 (plain http).
          LTI_ALLOW_LOOPBACK: 'true',
        },
      },
});
