// `npm run bench`: starts stack mode (separate service processes, real Kafka, embedded Postgres)
// in a fresh temp DATA_DIR on a free gateway port, seeds a class (bench/seed.mjs), runs the
// class-crowd scenario (bench/scenarios/class-crowd.mjs, its own process) through the gateway,
// prints requests/s and p50/p95/p99 per call, then stops the stack and checks nothing is left.
// Node built-ins only. Exit code: 0 when no errors, 1 otherwise (the latency targets are reported).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, installDependencies } from '../scripts/lib/bootstrap.mjs';
import { cpuBetween, cpuSnapshot, machineBetween, machineSnapshot, trackDescendants } from './processes.mjs';
import { runChild, startProduct, stopProduct } from './product.mjs';
import { percentile } from './stats.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 200);
// Students who first take the class's other assessment, so that the measured run meets a stack
// that has served this kind of load before (JIT-compiled code paths, prepared statements, warm
// caches), as a running deployment has. 0: measure a cold stack.
const WARMUP_STUDENTS = Math.min(STUDENTS, Number(process.env.BENCH_WARMUP_STUDENTS ?? 100));
const TARGETS = { save_answer: 50, submit: 150 }; // p99 in ms (bench/README.md, "Targets")
// The class's teacher watches its results during the measured run (bench/visibility.mjs): the
// delay from each submit's 201 until GET /api/classes/{id}/results lists it. BENCH_VISIBILITY=0: off.
const VISIBILITY = process.env.BENCH_VISIBILITY !== '0';
const VISIBILITY_TARGET_MS = 1000; // p99 ("results for everyone")
const files = {
  seed: path.join(bench, '.seed.json'),
  // Outside bench/ so that `prettier --check .` (which reads only the root ignore files) skips it.
  summary: path.join(root, '.cache/bench/summary.json'),
  warmupSummary: path.join(root, '.cache/bench/warmup-summary.json'),
  log: path.join(bench, '.stack.log'),
  // The measured run's `submitted <student> <ms>` lines, one per submit.
  submitLog: path.join(root, '.cache/bench/submits.log'),
  visibility: path.join(root, '.cache/bench/visibility.json'),
};

const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the class crowd's report
const ms = (v) => (v === undefined ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1));

/** The class crowd's summary (bench/scenarios/class-crowd.mjs) with the CPU of each process; returns the problems. */
function report(summary, cpu, load, idle) {
  const { seconds } = summary;
  const rows = [
    ['call', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'avg ms', 'max ms', 'errors', 'p99 target'],
  ];
  let errors = 0;
  for (const [call, label] of [
    ['open_assessment', 'open         GET assessment, questions, answers'],
    ['save_answer', 'save answer  POST /api/responses'],
    ['submit', 'submit       POST /api/results'],
  ]) {
    const v = summary.calls[call];
    errors += v.errors;
    const { p99 } = v;
    const failures = Object.entries(v.failures).map(([status, n]) => `${n}× ${status === '0' ? 'no answer' : status}`);
    rows.push([
      label,
      String(v.requests),
      (v.requests / seconds).toFixed(1),
      ms(v.p50),
      ms(v.p95),
      ms(p99),
      ms(v.avg),
      ms(v.max),
      failures.length ? `${v.errors} (${failures.join(', ')})` : '0',
      TARGETS[call] ? `< ${TARGETS[call]} ${p99 !== undefined && p99 < TARGETS[call] ? 'met' : 'MISSED'}` : '-',
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log('');
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  const incomplete = STUDENTS - summary.calls.submit.requests;
  const { requests } = summary;
  console.log(
    `\n${STUDENTS} students, ${summary.finished} finished, test ${seconds.toFixed(1)} s, ` +
      `${WARMUP_STUDENTS > 0 ? `after a warm-up of ${WARMUP_STUDENTS} students` : 'cold stack (no warm-up)'}, ` +
      `all HTTP ${requests} (${(requests / seconds).toFixed(1)}/s); ` +
      `load average before/after ${load.before} / ${load.after} on ${os.cpus().length} CPUs`,
  );
  console.log(
    `CPU seconds during the run (and CPU ms per request, idle included): ${Object.entries(cpu)
      .filter(([, s]) => s >= 0.05)
      .sort((a, b) => b[1] - a[1])
      .map(([role, s]) => `${role} ${s.toFixed(1)} (${((1000 * s) / Math.max(1, requests)).toFixed(2)})`)
      .join(', ')}`,
  );
  const busy = Object.entries(cpu).filter(([role]) => role !== GENERATOR && role !== WATCHER);
  const total = busy.reduce((sum, [, s]) => sum + s, 0);
  const idleTotal = Object.values(idle).reduce((sum, s) => sum + s, 0);
  console.log(
    `Stack CPU: ${(total / seconds).toFixed(2)} cores during the run (idle stack: ${idleTotal.toFixed(2)} cores: ` +
      `${Object.entries(idle)
        .filter(([, s]) => s >= 0.01)
        .sort((a, b) => b[1] - a[1])
        .map(([role, s]) => `${role} ${s.toFixed(2)}`)
        .join(', ')}); ` +
      `${((1000 * (total - idleTotal * seconds)) / Math.max(1, requests)).toFixed(1)} CPU ms per request above idle`,
  );
  if (load.machine) console.log(load.machine);
  if (incomplete > 0) console.log(`${incomplete} students did not submit within the time bound`);
  return errors + Math.max(0, incomplete);
}

// ---------------------------------------------------------------- submit → visible to the teacher
const WATCHER = 'teacher watcher';
const GENERATOR = 'class crowd (load generator)';

/** bench/visibility.mjs for the measured run; resolves once it watches the class. */
function startVisibility(baseUrl) {
  rmSync(files.visibility, { force: true });
  const child = spawn(process.execPath, [path.join(bench, 'visibility.mjs')], {
    cwd: root,
    env: { ...process.env, BASE_URL: baseUrl, SEED_FILE: files.seed, OUT: files.visibility, EXPECT: String(STUDENTS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('the teacher watcher was not ready after 60 s'));
    }, 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const ready = /^VISIBILITY_READY (.*)$/m.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, info: ready[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the teacher watcher exited with ${code}`));
    });
  });
}

/** Lets the watcher see the last results (it exits once it saw every student's), bounded; then stops it. */
async function stopVisibility(child, waitMs) {
  const running = () => child.exitCode === null && child.signalCode === null;
  const end = Date.now() + waitMs;
  while (running() && Date.now() < end) await sleep(200);
  if (running()) child.kill('SIGTERM'); // it writes what it saw and exits
  const hard = Date.now() + 10_000;
  while (running() && Date.now() < hard) await sleep(100);
  if (running()) child.kill('SIGKILL');
}

const how = (v) =>
  v.mode !== 'live'
    ? 'polled'
    : v.refresh === 'throttle'
      ? `fetched ${v.refreshDelayMs} ms after the first live-stream event of a burst, as the web page does`
      : `fetched ${v.refreshDelayMs} ms after the last live-stream event of a burst (LIVE_REFRESH=debounce)`;

/** Joins the class crowd's submit times with the times the teacher's fetches first listed each result. */
function reportVisibility(watch) {
  if (!watch.info || !existsSync(files.visibility) || !existsSync(files.submitLog)) {
    console.log(`Submit → visible to the teacher: not measured (${watch.error ?? 'no watcher output'})`);
    return 0;
  }
  const v = JSON.parse(readFileSync(files.visibility, 'utf8'));
  const submits = new Map();
  for (const m of readFileSync(files.submitLog, 'utf8').matchAll(/submitted ([0-9a-f-]{36}) (\d+)/g))
    submits.set(m[1], Number(m[2]));
  const delays = [];
  const afterStored = [];
  let missing = 0;
  for (const [student, at] of submits) {
    const seen = v.seen[student];
    if (!seen) {
      missing++;
      continue;
    }
    delays.push(seen.at - at);
    afterStored.push(seen.at - seen.submittedAt);
  }
  delays.sort((a, b) => a - b);
  afterStored.sort((a, b) => a - b);
  const fetchMs = [...v.fetches.ms].sort((a, b) => a - b);
  const p99 = percentile(delays, 99);
  const met = missing === 0 && p99 !== undefined && p99 < VISIBILITY_TARGET_MS;
  const f = (list) =>
    `p50 ${ms(percentile(list, 50))} / p95 ${ms(percentile(list, 95))} / p99 ${ms(percentile(list, 99))} / max ${ms(list.at(-1))} ms`;
  console.log(
    `Submit → visible to the teacher (201 of POST /api/results until GET /api/classes/{id}/results through the ` +
      `gateway lists it; ${how(v)}): ${delays.length} of ` +
      `${submits.size} submits, ${f(delays)}; p99 target < ${VISIBILITY_TARGET_MS} ${met ? 'met' : 'MISSED'}` +
      (missing ? `; ${missing} never listed within the bound` : ''),
  );
  console.log(
    `  from the result's submittedAt: ${f(afterStored)}; teacher: ${watch.info}; ` +
      `${v.events} live events, fetches ${v.fetches.live} on events + ${v.fetches.backstop} backstop + ` +
      `${v.fetches.poll} polled + ${v.fetches.initial} initial (${v.fetches.errors} failed), each ${f(fetchMs)}`,
  );
  return missing;
}

async function main(topology = 'stack') {
  const product = {};
  let crowd;
  let visibilityChild;
  let exitCode;
  const interrupt = async (signal) => {
    console.error(`\n${signal}: cleaning up`);
    crowd?.kill('SIGTERM');
    visibilityChild?.kill('SIGTERM');
    await stopProduct(product);
    process.exit(130);
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    await startProduct(product, topology, { students: STUDENTS, seedFile: files.seed, logFile: files.log });
    const { baseUrl, stack } = product;

    // The class crowd, in a process of its own (its CPU is measured apart from the stack's).
    const crowdRun = (phase, vus, summary) => {
      const measured = phase === 'measure';
      const env = { ...process.env, BASE_URL: baseUrl, SEED_FILE: files.seed, SUMMARY_FILE: summary };
      Object.assign(env, { VUS: String(vus), PHASE: phase, SUBMIT_LOG: measured && VISIBILITY ? files.submitLog : '' });
      // BENCH_REQUESTS_CSV=file: every request of the measured run, with its start time.
      env.REQUESTS_CSV = measured ? (process.env.BENCH_REQUESTS_CSV ?? '') : '';
      return runChild(process.execPath, [path.join(bench, 'scenarios/class-crowd.mjs')], {
        env,
        timeoutMs: 5 * 60_000,
        onSpawn: (child) => (crowd = child),
      });
    };
    const readSummary = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
    mkdirSync(path.dirname(files.summary), { recursive: true });
    rmSync(files.summary, { force: true });
    rmSync(files.warmupSummary, { force: true });
    if (WARMUP_STUDENTS > 0) {
      log(`warm-up: ${WARMUP_STUDENTS} students take the class's other assessment (not measured)`);
      const warm = await crowdRun('warmup', WARMUP_STUDENTS, files.warmupSummary);
      const summary = readSummary(files.warmupSummary);
      const failed = Object.values(summary?.calls ?? {}).reduce((n, c) => n + c.errors, 0);
      if (!summary || warm !== 0 || failed > 0 || summary.finished < WARMUP_STUDENTS)
        throw new Error(
          `warm-up failed (exit ${warm}, ${failed} failed calls, ${summary?.finished ?? 0} of ${WARMUP_STUDENTS} finished)`,
        );
    }

    const watch = {};
    if (VISIBILITY) {
      rmSync(files.submitLog, { force: true });
      try {
        Object.assign(watch, await startVisibility(baseUrl));
        visibilityChild = watch.child;
        log(`the class's teacher watches its results (${watch.info})`);
      } catch (err) {
        watch.error = err instanceof Error ? err.message : String(err);
        console.error(`bench: submit → visible not measured: ${watch.error}`);
      }
    }
    await sleep(3000); // let the seeding's (and warm-up's) events and logs settle
    trackDescendants(stack.pid);
    // Background CPU of the idle stack (pollers, consumers) over 5 s, to tell apart from the load.
    const idleBefore = cpuSnapshot();
    await sleep(5000);
    const idle = Object.fromEntries(Object.entries(cpuBetween(idleBefore, cpuSnapshot())).map(([r, s]) => [r, s / 5]));
    const load = {
      before: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
    log(`running the class crowd (${STUDENTS} students, load average ${load.before})`);
    const machineBefore = machineSnapshot();
    const watcherPid = watch.child ? { [WATCHER]: watch.child.pid } : {};
    const cpuBefore = cpuSnapshot(watcherPid);
    // Processes started during the run (a Postgres backend for a new pool connection) count too.
    const sample = setInterval(() => trackDescendants(stack.pid), 1000);
    const code = await crowdRun('measure', STUDENTS, files.summary).finally(() => clearInterval(sample));
    trackDescendants(stack.pid);
    const cpu = cpuBetween(cpuBefore, cpuSnapshot(watcherPid));
    load.machine = machineBetween(machineBefore, machineSnapshot());
    load.after = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const summary = readSummary(files.summary);
    if (!summary) throw new Error(`the class crowd exited with ${code} and wrote no summary`);
    if (code !== 0) console.error(`the class crowd exited with ${code}`);
    cpu[GENERATOR] = summary.cpuSeconds;
    let problems = report(summary, cpu, load, idle);
    if (watch.child) await stopVisibility(watch.child, 30_000);
    // A result the teacher never saw counts as an error; the delay target is reported.
    if (VISIBILITY) problems += reportVisibility(watch);
    exitCode = problems === 0 && code === 0 ? 0 : 1;
    if (problems) console.error(`\n${problems} errors, unfinished students or results the teacher never saw`);
  } catch (err) {
    console.error(`bench: ${err instanceof Error ? err.message : err}`);
    exitCode = 1;
  } finally {
    if (visibilityChild) await stopVisibility(visibilityChild, 0);
    const clean = await stopProduct(product);
    rmSync(files.seed, { force: true }); // its sessions died with the stack
    if (!clean) exitCode = 1;
  }
  process.exit(exitCode);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // A fresh clone has neither node_modules nor the generated code (protobuf, Prisma clients) that
  // the broker's topic list, the services and the seed import: bring them in first, as `npm start`.
  installDependencies();
  generate();
  const exitWith = (code) => process.exit(code);
  // `npm run bench -- <name>`; none: the class crowd through the stack (main above).
  const benchmarks = {
    stack: () => main('stack'),
    // The class crowd against the all-in-one instead of the stack.
    'all-in-one': () => main('all-in-one'),
    // The analytics benchmark (bench/analytics.mjs).
    analytics: () => import('./analytics.mjs').then((m) => m.runAnalytics()),
    // The OneRoster import benchmark (bench/roster.mjs, runs on import).
    roster: () => import('./roster.mjs'),
    // The standards catalogue's search at a district's size, on a scratch embedded Postgres (bench/standards-search.ts).
    'standards-search': () =>
      runChild(process.execPath, ['--import', 'tsx', path.join(bench, 'standards-search.ts')], {
        env: process.env,
        timeoutMs: 15 * 60_000,
      }).then(exitWith),
    // The item bank's search at a district's size, on a scratch embedded Postgres (bench/bank-search.ts).
    'bank-search': () =>
      runChild(process.execPath, ['--import', 'tsx', path.join(bench, 'bank-search.ts')], {
        env: process.env,
        timeoutMs: 15 * 60_000,
      }).then(exitWith),
    // Answer saves per second and CPU per save, all-in-one and stack (bench/closed-loop.mjs).
    'closed-loop': () => import('./closed-loop.mjs').then((m) => m.runClosedLoop().then(exitWith)),
    // A school's students open one assessment within 10 s (bench/bell.mjs).
    bell: () => import('./bell.mjs').then((m) => m.runBell().then(exitWith)),
    // Gateway, closed loop and bell in one run, their verdicts together (bench/targets.mjs).
    targets: () => import('./targets.mjs').then((m) => m.runTargets().then(exitWith)),
    // Mastery of standards at district size on a scratch Postgres (bench/mastery.ts).
    mastery: () =>
      runChild(process.execPath, ['--import', 'tsx', path.join(bench, 'mastery.ts')], {
        env: process.env,
        timeoutMs: 25 * 60_000,
      }).then(exitWith),
    // The gateway's own CPU per proxied call (bench/gateway-cost.ts).
    gateway: () =>
      runChild(process.execPath, ['--import', 'tsx', path.join(bench, 'gateway-cost.ts')], {
        env: process.env,
        timeoutMs: 5 * 60_000,
      }).then(exitWith),
  };
  const name = process.argv[2] ?? 'stack';
  const run = Object.hasOwn(benchmarks, name)
    ? benchmarks[name]()
    : Promise.reject(new Error(`unknown benchmark "${name}" (none or one of ${Object.keys(benchmarks).join(', ')})`));
  run.catch((err) => {
    console.error(`bench: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
