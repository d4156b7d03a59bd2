// Brings a fresh clone to a runnable state using only Node built-ins: installs npm packages when
// missing or outdated, generates code (protobuf, Prisma clients), builds the web app and the
// services (compiled all-in-one) when stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
  }
}

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export function installDependencies() {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('› installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

export function generate() {
  run(process.execPath, ['scripts/generate.mjs']);
}

export function buildWeb({ force = false } = {}) {
  // landing.html is written last (web/vite.config.ts): without it the build is older or broken.
  const landing = path.join(root, 'web/dist/landing.html');
  const built = existsSync(landing) ? statSync(landing).mtimeMs : 0;
  const sources = Math.max(
    newest(path.join(root, 'web/src')),
    ...['web/index.html', 'web/vite.config.ts'].map((file) => statSync(path.join(root, file)).mtimeMs),
  );
  if (!force && built > sources) return;
  console.log('› building the web app');
  run('npm', ['run', 'build', '-w', '@checkpoint/web']);
}

/** The compiled all-in-one (scripts/build-services.mjs), in a process of its own: esbuild stays out of the server. */
export function buildServices({ force = false } = {}) {
  run(process.execPath, ['scripts/build-services.mjs', ...(force ? ['--force'] : [])]);
}

export function bootstrap() {
  installDependencies();
  generate();
  buildWeb();
  buildServices();
}
