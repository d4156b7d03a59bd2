// `npm run bench -- closed-loop` (or `node bench/closed-loop.mjs`): answer saves per second, and
// CPU per save, when clients send the next save as soon as the last one is answered.
//   1. The yardstick: the load generator (bench/load.mjs) against a bare Node `http` server
//      (bench/bare-server.mjs): what the generator can drive on this machine.
//   2. The product: the all-in-one (`scripts/start.mjs --no-bootstrap`, embedded Postgres, fresh
//      temp DATA_DIR) seeded by bench/seed.mjs through its gateway; each client is one seeded
//      student saving answers (`POST /api/responses`, session cookie and CSRF header as the web
//      app sends them, clientSeq counting up) one after the other.
// CPU comes from /proc for every process of the all-in-one's tree (Node and each Postgres
// process) between the start and end of the measured window, as bench/run.mjs counts it.
// Settings: CLOSED_LOOP_CLIENTS (32), CLOSED_LOOP_SECONDS (20), CLOSED_LOOP_WARMUP_SECONDS (5),
// CLOSED_LOOP_RATE (unset: closed loop; n: both targets paced to n requests/s in all),
// LOG_LEVEL (unset: the all-in-one's default, warn; info adds the gateway's access-log line per request),
// CLOSED_LOOP_PROFILE_DIR (a CPU profile of the all-in-one written there at its exit; summarise it
// with bench/profile-top.mjs).
//   3. The same save through the stack (bench/run.mjs's startProduct: gateway, a process per
//      service, real Kafka, on stack mode's fixed ports), the same clients and windows, its saves/s
//      and CPU per save (every process: gateway, services, Postgres, Kafka) printed beside the
//      all-in-one's, with the stack's share of the all-in-one's saves/s (target ≥ 50 %).
//      CLOSED_LOOP_STACK=0 leaves it out (then no fixed port is used).
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cpuBetween,
  cpuSnapshot,
  machineBetween,
  machineSnapshot,
  reapTracked,
  trackDescendants,
} from './processes.mjs';
import { startProduct, stopProduct } from './product.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}
const CLIENTS = positiveInt('CLOSED_LOOP_CLIENTS', 32);
const SECONDS = positiveInt('CLOSED_LOOP_SECONDS', 20);
const WARMUP_SECONDS = positiveInt('CLOSED_LOOP_WARMUP_SECONDS', 5);
// Paced instead of closed: at most this many saves per second in all (CPU per save rises as the
// rate falls: fewer requests share each wake-up). Unset: as fast as the answers come.
const RATE = process.env.CLOSED_LOOP_RATE ? positiveInt('CLOSED_LOOP_RATE') : undefined;
const LOG_LEVEL = process.env.LOG_LEVEL || undefined;
const STACK = process.env.CLOSED_LOOP_STACK !== '0';
const STACK_SHARE_TARGET = 0.5; // the stack's saves/s as a share of the all-in-one's, same run
// The all-in-one's output (outside bench/, which prettier checks).
const LOG_FILE = path.join(root, '.cache/bench/closed-loop.log');
const STACK_LOG_FILE = path.join(root, '.cache/bench/closed-loop-stack.log');

const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);

/** Spawns node with `args`; resolves the child once a stdout line matches `pattern`, with the match. */
function spawnUntil(args, { env, pattern, timeoutMs, what }) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${what} not ready after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before it was ready`));
    });
  });
}

/**
 * Runs bench/load.mjs with `clients`, taking a CPU snapshot of `tree` (root pid, tracked) at the
 * start and end of the measured window; resolves the generator's figures and the tree's CPU.
 */
async function drive(url, clients, tree) {
  const planFile = path.join(os.tmpdir(), `closed-loop-plan-${process.pid}.json`);
  writeFileSync(
    planFile,
    JSON.stringify({ url, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, ratePerSecond: RATE, clients }),
  );
  const child = spawn(process.execPath, [path.join(bench, 'load.mjs'), planFile], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let before;
  let after;
  let machine;
  const timer = setTimeout(() => child.kill('SIGKILL'), (WARMUP_SECONDS + SECONDS + 60) * 1000);
  // Snapshots at the generator's own window boundaries (its MEASURE lines), not guessed by time.
  let out = '';
  const result = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!before && out.includes('MEASURE_START')) {
        trackDescendants(tree, 'closed-loop');
        before = cpuSnapshot();
        machine = machineSnapshot();
      }
      if (before && !after && out.includes('MEASURE_END')) {
        trackDescendants(tree, 'closed-loop');
        after = cpuSnapshot();
        machine = machineBetween(machine, machineSnapshot());
      }
    });
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`the load generator exited with ${code}`));
      else resolve(JSON.parse(line));
    });
  });
  clearTimeout(timer);
  rmSync(planFile, { force: true });
  if (!before || !after) throw new Error('the load generator did not report its measured window');
  return { result, cpu: cpuBetween(before, after), machine };
}

function studentClients(seed) {
  return seed.students.map((s) => ({
    headers: { Cookie: `cp_session=${s.session}; cp_csrf=${s.csrf}`, 'X-CSRF-Token': s.csrf },
    // The student answers the questions in turn, again and again: an autosave of a changing answer.
    saves: seed.questions.map((q, i) => ({
      assessmentId: seed.assessmentId,
      questionId: q.id,
      answer: q.options[i % q.options.length],
    })),
  }));
}

function describe(name, { result, cpu }, ownRoles) {
  const own = Object.entries(cpu).filter(([role]) => ownRoles(role));
  const total = own.reduce((n, [, s]) => n + s, 0);
  const perRequest = (1000 * total) / Math.max(1, result.ok);
  const errors = result.requests - result.ok + result.socketErrors;
  console.log(
    `${name}: ${f1(result.perSecond)} answers/s (${result.ok} of ${result.requests} 2xx, statuses ${JSON.stringify(result.statuses)}` +
      `${result.socketErrors ? `, ${result.socketErrors} socket errors` : ''}); latency p50 ${f2(result.ms.p50)} / p95 ${f2(result.ms.p95)} / ` +
      `p99 ${f2(result.ms.p99)} / max ${f1(result.ms.max)} ms`,
  );
  console.log(
    `  CPU: ${own
      .sort((a, b) => b[1] - a[1])
      .map(([role, s]) => `${role} ${f2(s)} s`)
      .join(', ')} = ${f2(total / result.seconds)} cores, ${f2(perRequest)} CPU ms per answer; ` +
      `load generator ${f2(result.cpuSeconds / result.seconds)} cores, ${f2((1000 * result.cpuSeconds) / Math.max(1, result.requests))} ms per request`,
  );
  return { perSecond: result.perSecond, perRequest, errors };
}

async function stopChild(child, what) {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  const end = Date.now() + 45_000;
  while (child.exitCode === null && Date.now() < end) await sleep(200);
  if (child.exitCode === null) {
    console.error(`${what} still running after 45 s: SIGKILL`);
    child.kill('SIGKILL');
  }
}

export async function runClosedLoop() {
  let bare;
  const aio = {};
  const stack = {};
  let failed = false;
  try {
    // ---------------------------------------------------------------- 1. the bare server
    bare = await spawnUntil([path.join(bench, 'bare-server.mjs')], {
      env: { ...process.env, PORT: '0' },
      pattern: /BARE_READY (\d+)/,
      timeoutMs: 30_000,
      what: 'the bare server',
    });
    const bareUrl = `http://127.0.0.1:${bare.match[1]}/api/responses`;
    log(`the load generator against a bare Node http server (${CLIENTS} clients, ${WARMUP_SECONDS} + ${SECONDS} s)`);
    const fakeClients = Array.from({ length: CLIENTS }, (_, i) => ({
      headers: { Cookie: `cp_session=bench-${i}`, 'X-CSRF-Token': 'bench' },
      saves: [{ assessmentId: 'a', questionId: `q${i}`, answer: 'An answer' }],
    }));
    const bareRun = await drive(bareUrl, fakeClients, bare.child.pid);
    const bareFigures = describe('bare Node http server', bareRun, () => true);
    await stopChild(bare.child, 'the bare server');

    // ---------------------------------------------------------------- 2. the all-in-one
    const profileDir = process.env.CLOSED_LOOP_PROFILE_DIR;
    const aioSeedFile = path.join(os.tmpdir(), `closed-loop-seed-${process.pid}.json`);
    const seed = await startProduct(aio, 'all-in-one', {
      students: CLIENTS,
      seedFile: aioSeedFile,
      logFile: LOG_FILE,
      // Unset: the all-in-one's default (warn).
      logLevel: LOG_LEVEL,
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [],
    });
    rmSync(aioSeedFile, { force: true });
    await sleep(3000); // the seeding's events settle
    log(`${CLIENTS} students save answers through the gateway, closed loop (${WARMUP_SECONDS} + ${SECONDS} s)`);
    const product = await drive(`${aio.baseUrl}/api/responses`, studentClients(seed), aio.stack.pid);
    const figures = describe(
      'all-in-one, POST /api/responses',
      product,
      (role) => role !== 'closed-loop' && role !== 'load',
    );
    if (product.machine) console.log(product.machine);
    if (RATE) {
      // Paced: neither side runs flat out, so there is no limit to show and the target (a closed
      // loop's) does not apply; the bare server's figure at the same rate is the yardstick.
      console.log(
        `Paced at ${RATE} requests/s: ${f2(figures.perRequest)} CPU ms per answer against the bare server's ` +
          `${f2(bareFigures.perRequest)} at the same rate (the 1.0 ms target is for the closed loop).`,
      );
    } else {
      console.log(
        `The generator drove the bare server at ${f1(bareFigures.perSecond)} requests/s, ` +
          `${f1(bareFigures.perSecond / Math.max(1, figures.perSecond))}× the product's ${f1(figures.perSecond)} answers/s: ` +
          `the product, not the generator, is the limit.`,
      );
      console.log(
        `Target: ≤ 1.0 CPU ms per answer for Node + Postgres: ${figures.perRequest <= 1 ? 'met' : 'MISSED'} (${f2(figures.perRequest)})`,
      );
    }
    if (figures.errors > 0) {
      console.error(`${figures.errors} saves failed`);
      failed = true;
    }
    await stopProduct(aio);

    // ---------------------------------------------------------------- 3. the stack
    if (STACK) {
      const seedFile = path.join(os.tmpdir(), `closed-loop-stack-seed-${process.pid}.json`);
      const stackSeed = await startProduct(stack, 'stack', {
        students: CLIENTS,
        seedFile,
        logFile: STACK_LOG_FILE,
        // As the all-in-one's default: no access-log line per request.
        logLevel: LOG_LEVEL ?? 'warn',
      });
      rmSync(seedFile, { force: true });
      await sleep(3000); // the seeding's events settle
      log(
        `${CLIENTS} students save answers through the stack's gateway, closed loop (${WARMUP_SECONDS} + ${SECONDS} s)`,
      );
      const run = await drive(`${stack.baseUrl}/api/responses`, studentClients(stackSeed), stack.stack.pid);
      const stackFigures = describe(
        'stack (gateway, services, Kafka), POST /api/responses',
        run,
        (role) => !['closed-loop', 'load', 'web (vite)', 'stack runner'].includes(role),
      );
      if (run.machine) console.log(run.machine);
      const share = stackFigures.perSecond / Math.max(1, figures.perSecond);
      console.log(
        `Stack beside the all-in-one, same run: ${f1(stackFigures.perSecond)} against ${f1(figures.perSecond)} answers/s ` +
          `(${(100 * share).toFixed(0)} %), ${f2(stackFigures.perRequest)} against ${f2(figures.perRequest)} CPU ms per answer.`,
      );
      if (!RATE)
        console.log(
          `Target: the stack ≥ ${100 * STACK_SHARE_TARGET} % of the all-in-one's answers/s: ${share >= STACK_SHARE_TARGET ? 'met' : 'MISSED'}`,
        );
      if (stackFigures.errors > 0) {
        console.error(`${stackFigures.errors} saves through the stack failed`);
        failed = true;
      }
    }
  } catch (err) {
    console.error(`closed-loop: ${err instanceof Error ? err.message : err}`);
    failed = true;
  } finally {
    await stopChild(bare?.child, 'the bare server');
    const { killed, left } = await reapTracked(new Set(['closed-loop']), 'the bare server');
    if (killed || left) failed = true;
    if (!(await stopProduct(aio))) failed = true;
    if (!(await stopProduct(stack))) failed = true;
  }
  return failed ? 1 : 0;
}
