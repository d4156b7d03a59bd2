// `npm run bench:memory`: the idle memory of the all-in-one (docs/architecture.md, "The all-in-one, compiled and small"). Starts
// `node scripts/start.mjs` (what `npm start` runs) on a fresh temp DATA_DIR and a free port, waits
// for /healthz, lets it idle, then sums its process tree from /proc: the Node process's RSS and
// the embedded Postgres (postmaster and its backends). Postgres processes share their buffers, so
// their RSS sum counts those pages once per process that touched them; PSS (smaps_rollup) shares
// each page among them, and is the headline figure. Node built-ins only; Linux only.
//
//   node bench/memory.mjs [--idle 30] [--no-bootstrap] [--tsx] [--detail] [--e2e [spec files…]] [--keep]
//
// --no-bootstrap: build only the services (scripts/build-services.mjs) and run the compiled
//   all-in-one directly (no npm ci, code generation or web build; WEB_DIST may name a web build).
// --tsx: run app/src/all-in-one.ts through tsx instead (the former way, for comparison).
// --detail: every process's RSS and PSS as well.
// --e2e: after the first figures, run the Playwright browser suite (or the given specs) against
//   the running server, idle again and print the figures after it.
// Exit code 1 when a figure is above its target (350 MB after start, 400 MB after the browser tests).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_AFTER_START_MB = 350;
const TARGET_AFTER_E2E_MB = 400;

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const idleSeconds = flag('--idle') ? Number(args[args.indexOf('--idle') + 1]) : 30;
if (!(idleSeconds >= 0)) throw new Error('--idle: a number of seconds');
const e2eAt = args.indexOf('--e2e');
const e2eSpecs = e2eAt < 0 ? [] : args.slice(e2eAt + 1).filter((a) => !a.startsWith('--'));

const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** pid → {ppid, comm} of every process. */
function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      table.set(Number(name), {
        ppid: Number(stat.slice(close + 2).split(' ')[1]),
        comm: stat.slice(stat.indexOf('(') + 1, close),
      });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 100);
  } catch {
    return '';
  }
}

/** kB of a `Field:   123 kB` line in a /proc file, 0 when absent (or the process is gone). */
function kb(file, field) {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** RSS and PSS (MB) of the tree under rootPid, split into Node, Postgres and anything else. */
function measure(rootPid) {
  const table = processTable();
  const children = new Map();
  for (const [pid, p] of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const groups = {};
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    const p = table.get(pid);
    if (!p) continue;
    const group =
      p.comm === 'node' || p.comm === 'MainThread' ? 'node' : p.comm.startsWith('postgres') ? 'postgres' : p.comm;
    const g = (groups[group] ??= { processes: 0, rssMb: 0, pssMb: 0 });
    const rssMb = kb(`/proc/${pid}/status`, 'VmRSS') / 1024;
    const pssMb = kb(`/proc/${pid}/smaps_rollup`, 'Pss') / 1024;
    g.processes += 1;
    g.rssMb += rssMb;
    g.pssMb += pssMb;
    if (flag('--detail'))
      console.log(
        `    ${String(pid).padStart(7)} RSS ${rssMb.toFixed(1).padStart(6)}  PSS ${pssMb.toFixed(1).padStart(6)}  ${cmdline(pid)}`,
      );
    stack.push(...(children.get(pid) ?? []));
  }
  return groups;
}

function report(label, groups, target) {
  const mb = (n) => `${n.toFixed(0)} MB`;
  const node = groups.node ?? { processes: 0, rssMb: 0, pssMb: 0 };
  const postgres = groups.postgres ?? { processes: 0, rssMb: 0, pssMb: 0 };
  const others = Object.entries(groups).filter(([name]) => name !== 'node' && name !== 'postgres');
  const total = node.rssMb + postgres.pssMb + others.reduce((sum, [, g]) => sum + g.pssMb, 0);
  console.log(`\n${label}`);
  console.log(`  Node       ${node.processes} process(es)  RSS ${mb(node.rssMb)}  (PSS ${mb(node.pssMb)})`);
  console.log(
    `  Postgres   ${postgres.processes} process(es)  PSS ${mb(postgres.pssMb)}  (RSS sum ${mb(postgres.rssMb)}, shared buffers counted per process)`,
  );
  for (const [name, g] of others) console.log(`  ${name.padEnd(10)} ${g.processes} process(es)  PSS ${mb(g.pssMb)}`);
  const rssTotal = node.rssMb + postgres.rssMb + others.reduce((sum, [, g]) => sum + g.rssMb, 0);
  console.log(
    `  total      ${mb(total)} (Node RSS + PSS of the rest; target < ${target} MB)  [every RSS summed: ${mb(rssTotal)}]`,
  );
  return total <= target;
}

async function waitHealthy(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited (code ${child.exitCode}) before answering /healthz`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(500);
  }
  throw new Error(`no answer on ${url}/healthz within ${timeoutMs / 1000} s`);
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await Promise.race([exited, sleep(20_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function main() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'checkpoint-memory-'));
  // Embedded Postgres runs initdb as another user when this runs as root.
  chmodSync(dataDir, 0o777);
  mkdirSync(path.join(root, '.cache/bench'), { recursive: true });
  const logFile = path.join(root, '.cache/bench/memory.log');
  let command = ['scripts/start.mjs'];
  if (flag('--tsx')) command = ['--import', 'tsx', 'app/src/all-in-one.ts'];
  else if (flag('--no-bootstrap')) {
    const built = spawnSync(process.execPath, ['scripts/build-services.mjs'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the services failed');
    command = ['scripts/start.mjs', '--no-bootstrap'];
  }
  log(
    `starting node ${command.join(' ')} on port ${port}, DATA_DIR ${dataDir} (output in ${path.relative(root, logFile)})`,
  );
  const out = openSync(logFile, 'w');
  const started = Date.now();
  const child = spawn(process.execPath, command, {
    cwd: root,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_SEED: 'true',
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
      RATE_LIMIT_EMAIL_PER_MINUTE: '1000',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  let ok = true;
  try {
    await waitHealthy(url, child, 300_000);
    log(`healthy after ${((Date.now() - started) / 1000).toFixed(1)} s; idle for ${idleSeconds} s`);
    await sleep(idleSeconds * 1000);
    ok = report(`After start, idle ${idleSeconds} s:`, measure(child.pid), TARGET_AFTER_START_MB) && ok;
    if (e2eAt >= 0) {
      log(`running the browser tests against ${url}${e2eSpecs.length ? `: ${e2eSpecs.join(' ')}` : ''}`);
      const e2e = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...e2eSpecs], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, E2E_BASE_URL: url, E2E_DATA_DIR: dataDir },
      });
      log(`browser tests ended with exit code ${e2e.status}; idle for ${idleSeconds} s`);
      await sleep(idleSeconds * 1000);
      ok = report(`After the browser tests, idle ${idleSeconds} s:`, measure(child.pid), TARGET_AFTER_E2E_MB) && ok;
    }
  } finally {
    await stop(child);
    if (!flag('--keep')) rmSync(dataDir, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
