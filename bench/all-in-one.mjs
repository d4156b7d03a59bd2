// The all-in-one for a benchmark: `npm start`'s process (scripts/start.mjs) on a free port of
// 127.0.0.1 and a fresh temp DATA_DIR, ready when /readyz answers; `stop()` ends it and removes
// the folder.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts it with `env` added; resolves with its URL, DATA_DIR, process and `stop` (SIGTERM, SIGKILL
 * after a minute). Its stdout goes to `stdout` (a file descriptor; default: ignored).
 */
export async function startAllInOne(env = {}, { readyTimeoutMs = 300_000, stdout = 'ignore' } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'checkpoint-bench-'));
  chmodSync(dataDir, 0o755); // embedded Postgres runs as the postgres user when we are root
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(killer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const end = Date.now() + readyTimeoutMs; ; await new Promise((r) => setTimeout(r, 500))) {
      if (child.exitCode !== null) throw new Error(`the all-in-one exited with ${child.exitCode} before it was ready`);
      if (
        await fetch(`${url}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > end) throw new Error(`the all-in-one was not ready within ${readyTimeoutMs / 1000} s`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dataDir, child, stop };
}
