// `npm run bench -- bell` (or `node bench/bell.mjs`): the bell. A whole school's students open the
// same assessment within BELL_SECONDS (10) and save their first answer, through the stack (gateway,
// a process per service, real Kafka, embedded Postgres: bench/run.mjs's startProduct). Class sizes
// BELL_SIZES (1000,2000,3000) are tried in turn, smallest first, each on an assessment of its own
// (seeded, not yet opened by anyone) with the same students; a size holds when no call failed and
// the opens' p99 is under BELL_OPEN_P99_MS (2000). Stops at the first size that does not hold and
// prints the largest that did. Before the sizes, BELL_WARMUP_STUDENTS (200) take the seed's warm-up
// assessment the same way (not measured), as a running deployment has served such load before.
// Seeding signs up the largest size's students by their mailed links (argon2id each: minutes;
// BELL_SEED_MINUTES, 30, bounds it). After the warm-up, the stack's idle cost (CPU ms per second by
// process, nobody using it) is measured over BELL_IDLE_SECONDS (15).
// BELL_TOPOLOGY=all-in-one rings it at `npm start`'s all-in-one instead (no Kafka, no fixed ports).
// Exit code: 0 when the target size (BELL_TARGET, 3000) holds, 1 otherwise.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync, rmSync } from 'node:fs';
import { cpuBetween, cpuSnapshot, trackDescendants } from './processes.mjs';
import { runChild, startProduct, stopProduct } from './product.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');

function positiveInt(name, fallback, raw = process.env[name]) {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}
const SIZES = (process.env.BELL_SIZES ?? '1000,2000,3000')
  .split(',')
  .map((v) => positiveInt('BELL_SIZES', undefined, v.trim()))
  .sort((a, b) => a - b);
const SECONDS = positiveInt('BELL_SECONDS', 10);
const OPEN_P99_MS = positiveInt('BELL_OPEN_P99_MS', 2000);
const WARMUP = positiveInt('BELL_WARMUP_STUDENTS', 200);
const TARGET = positiveInt('BELL_TARGET', 3000);
const SEED_MINUTES = positiveInt('BELL_SEED_MINUTES', 30);
const IDLE_SECONDS = positiveInt('BELL_IDLE_SECONDS', 15);
const TOPOLOGY = process.env.BELL_TOPOLOGY ?? 'stack';
if (!['stack', 'all-in-one'].includes(TOPOLOGY))
  throw new Error(`BELL_TOPOLOGY must be stack or all-in-one, got "${TOPOLOGY}"`);
const LOG_FILE = path.join(root, '.cache/bench/bell-stack.log');
const SEED_FILE = path.join(root, '.cache/bench/bell-seed.json');
const SUMMARY_FILE = path.join(root, '.cache/bench/bell-summary.json');

const log = (msg) => console.log(`› ${msg}`);
const ms = (v) => (v === undefined ? '-' : v.toFixed(0));

/** One bell: `students` of the seed open assessment `phase` within SECONDS and save a first answer. */
async function ring(product, phase, students) {
  rmSync(SUMMARY_FILE, { force: true });
  trackDescendants(product.stack.pid);
  const before = cpuSnapshot();
  const sample = setInterval(() => trackDescendants(product.stack.pid), 1000);
  const code = await runChild(process.execPath, [path.join(bench, 'scenarios/class-crowd.mjs')], {
    env: {
      ...process.env,
      BASE_URL: product.baseUrl,
      SEED_FILE,
      SUMMARY_FILE,
      VUS: String(students),
      PHASE: phase,
      PLAN: 'bell',
      ARRIVAL_S: String(SECONDS),
      MAX_DURATION_S: '120',
    },
    timeoutMs: 5 * 60_000,
  }).finally(() => clearInterval(sample));
  trackDescendants(product.stack.pid);
  const cpu = cpuBetween(before, cpuSnapshot());
  if (code !== 0) throw new Error(`the bell's load generator exited with ${code}`);
  const summary = JSON.parse(readFileSync(SUMMARY_FILE, 'utf8'));
  const productCpu = Object.entries(cpu)
    .filter(([role]) => !['web (vite)', 'stack runner'].includes(role))
    .reduce((n, [, s]) => n + s, 0);
  return { summary, cpu, productCpu };
}

function describe(students, { summary, cpu, productCpu }) {
  const open = summary.calls.open_assessment;
  const save = summary.calls.save_answer;
  const errors = open.errors + save.errors + (students - summary.finished);
  const holds = errors === 0 && open.p99 !== undefined && open.p99 < OPEN_P99_MS;
  console.log(
    `${String(students).padStart(5)} students in ${SECONDS} s: open p50 ${ms(open.p50)} / p95 ${ms(open.p95)} / ` +
      `p99 ${ms(open.p99)} ms (${open.requests} calls), first save p99 ${ms(save.p99)} ms; ` +
      `${errors} errors${errors ? ` (open ${JSON.stringify(open.failures)}, save ${JSON.stringify(save.failures)}, ` + `${students - summary.finished} unfinished)` : ''}; ` +
      `${summary.finished} finished in ${summary.seconds.toFixed(1)} s; ` +
      `CPU ${productCpu.toFixed(1)} s (${((1000 * productCpu) / Math.max(1, summary.requests)).toFixed(2)} ms per request: ` +
      `${Object.entries(cpu)
        .filter(([, s]) => s >= 0.5)
        .sort((a, b) => b[1] - a[1])
        .map(([role, s]) => `${role} ${s.toFixed(1)}`)
        .join(', ')}) → ${holds ? 'holds' : 'does NOT hold'}`,
  );
  return holds;
}

/** What the stack burns with nobody using it: CPU ms per second by process over IDLE_SECONDS. */
async function idleCost(product) {
  await new Promise((r) => setTimeout(r, 5000)); // the warm-up's events settle
  trackDescendants(product.stack.pid);
  const before = cpuSnapshot();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const cpu = cpuBetween(before, cpuSnapshot());
  const perSecond = Object.entries(cpu)
    .filter(([role]) => !['web (vite)', 'stack runner'].includes(role))
    .map(([role, s]) => [role, (1000 * s) / IDLE_SECONDS])
    .sort((a, b) => b[1] - a[1]);
  const total = perSecond.reduce((n, [, v]) => n + v, 0);
  log(
    `idle stack over ${IDLE_SECONDS} s: ${total.toFixed(0)} CPU ms per second ` +
      `(${perSecond.map(([role, v]) => `${role} ${v.toFixed(1)}`).join(', ')})`,
  );
}

export async function runBell() {
  const product = {};
  let exitCode = 1;
  try {
    const largest = SIZES.at(-1);
    const seed = await startProduct(product, TOPOLOGY, {
      students: Math.max(largest, WARMUP),
      seedFile: SEED_FILE,
      logFile: LOG_FILE,
      logLevel: process.env.LOG_LEVEL ?? 'warn',
      seedEnv: { BENCH_EXTRA_ASSESSMENTS: String(SIZES.length), BENCH_SEED_PARALLEL: '16' },
      seedTimeoutMs: SEED_MINUTES * 60_000,
    });
    log(`seeded ${seed.students.length} students; warm-up bell of ${WARMUP} students (not measured)`);
    await ring(product, 'warmup', WARMUP);
    await idleCost(product);
    log(
      `the bell, class sizes ${SIZES.join(', ')} (load average ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} CPUs)`,
    );
    let held = 0;
    for (const [i, size] of SIZES.entries()) {
      await new Promise((r) => setTimeout(r, 5000)); // the last bell's events settle
      if (!describe(size, await ring(product, `extra:${i}`, size))) break;
      held = size;
    }
    console.log(
      `Largest class that holds (0 errors, open p99 < ${OPEN_P99_MS} ms): ${held || `none of ${SIZES.join(', ')}`}; ` +
        `target ${TARGET}: ${held >= TARGET ? 'met' : 'MISSED'}`,
    );
    exitCode = held >= TARGET ? 0 : 1;
  } catch (err) {
    console.error(`bell: ${err instanceof Error ? err.message : err}`);
  } finally {
    if (!(await stopProduct(product))) exitCode = 1;
    rmSync(SEED_FILE, { force: true });
  }
  return exitCode;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await runBell());
