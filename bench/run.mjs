// `npm run bench`: starts stack mode (separate service processes, real Kafka, embedded Postgres)
// in a fresh temp DATA_DIR on a free gateway port, seeds a class (bench/seed.mjs), runs the
// class-crowd scenario (bench/scenarios/class-crowd.mjs, its own process) through the gateway,
// prints requests/s and p50/p95/p99 per call, then stops the stack and checks nothing is left.
// Node built-ins only. Exit code: 0 when no errors, 1 otherwise (the latency targets are reported).
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, installDependencies } from '../scripts/lib/bootstrap.mjs';
import { percentile } from './stats.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');
const SERVICE_PORTS = { identity: 8101, class: 8102, assessment: 8103, generation: 8104, analytics: 8105 };
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 200);
// Students who first take the class's other assessment, so that the measured run meets a stack
// that has served this kind of load before (JIT-compiled code paths, prepared statements, warm
// caches), as a running deployment has. 0: measure a cold stack.
const WARMUP_STUDENTS = Math.min(STUDENTS, Number(process.env.BENCH_WARMUP_STUDENTS ?? 100));
const TARGETS = { save_answer: 50, submit: 150 }; // p99 in ms (issue 4, item 6)
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

// ---------------------------------------------------------------- ports
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer().once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

// ---------------------------------------------------------------- processes of the stack
/** pid → {ppid, start, comm} from /proc (start time tells a reused pid apart). */
function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      table.set(Number(name), {
        ppid: Number(fields[1]),
        cpuTicks: Number(fields[11]) + Number(fields[12]),
        start: fields[19],
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
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Every process started under the stack (Kafka and its watchdog, Postgres, services, gateway, web). */
const tracked = new Map(); // pid → {start, comm, role}
function trackDescendants(rootPid, owner = 'stack') {
  const table = processTable();
  const children = new Map();
  for (const [pid, p] of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    const p = table.get(pid);
    if (p && !tracked.has(pid)) tracked.set(pid, { start: p.start, comm: p.comm, role: roleOf(pid, p.comm), owner });
    stack.push(...(children.get(pid) ?? []));
  }
  return table;
}

function roleOf(pid, comm) {
  const cmd = cmdline(pid);
  if (comm === 'java' || cmd.includes('kafka.Kafka')) return 'kafka';
  if (comm.startsWith('postgres') || cmd.includes('postgres:')) return 'postgres';
  const service = /services\/(\w+)\/src\/main\.ts/.exec(cmd)?.[1];
  if (service) return service;
  if (cmd.includes('gateway/src/main.ts')) return 'gateway';
  if (cmd.includes('vite')) return 'web (vite)';
  if (cmd.includes('scripts/stack')) return 'stack runner';
  if (cmd.includes('scripts/start.mjs')) return 'all-in-one';
  return comm;
}

/**
 * The machine's share of idle, I/O wait and steal time so far (/proc/stat) and the page cache
 * still to be written to disk (/proc/meminfo): a run during heavy writeback (right after a CI
 * run's clone and install, say) shows it here. Undefined where /proc is not there.
 */
function machineSnapshot() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const meminfo = readFileSync('/proc/meminfo', 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0);
    return { ticks, unwrittenMb: (kb('Dirty') + kb('Writeback')) / 1024 };
  } catch {
    return undefined;
  }
}

function machineBetween(before, after) {
  if (!before || !after) return undefined;
  const delta = after.ticks.map((t, i) => t - (before.ticks[i] ?? 0));
  const total = delta.reduce((sum, t) => sum + t, 0) || 1;
  const pct = (i) => `${((100 * (delta[i] ?? 0)) / total).toFixed(0)}%`;
  // Fields: user nice system idle iowait irq softirq steal.
  return (
    `Machine during the run: idle ${pct(3)}, I/O wait ${pct(4)}, steal ${pct(7)}; ` +
    `unwritten page cache before/after ${before.unwrittenMb.toFixed(0)} / ${after.unwrittenMb.toFixed(0)} MB`
  );
}

function alive(pid, start) {
  const p = processTable().get(pid);
  return p !== undefined && p.start === start;
}

/** CPU seconds so far of each tracked process (and of `extra` role → pid), by pid and start time. */
function cpuSnapshot(extra = {}) {
  const table = processTable();
  const hz = 100;
  const out = new Map();
  const add = (pid, role) => {
    const p = table.get(pid);
    if (p) out.set(`${pid}@${p.start}`, { role, seconds: p.cpuTicks / hz });
  };
  for (const [pid, t] of tracked) if (table.get(pid)?.start === t.start) add(pid, t.role);
  for (const [role, pid] of Object.entries(extra)) add(pid, role);
  return out;
}

/**
 * CPU seconds by role between two snapshots. A process that ended in between (a Postgres backend
 * whose pool connection idled out) is left out rather than counted negative; one that started in
 * between counts in full.
 */
function cpuBetween(before, after) {
  const out = {};
  for (const [key, { role, seconds }] of after)
    out[role] = (out[role] ?? 0) + seconds - (before.get(key)?.seconds ?? 0);
  return out;
}

// ---------------------------------------------------------------- the run
async function waitReady(urls, stack, logFile, timeoutMs, readyLine = '[stack] demo content:') {
  const end = Date.now() + timeoutMs;
  const pending = new Set(urls);
  while (pending.size) {
    if (stack.exitCode !== null) throw new Error(`the stack exited with ${stack.exitCode} (see ${logFile})`);
    const died = /^\[([\w-]+)\] exited with/m.exec(readFileSync(logFile, 'utf8'));
    if (died) throw new Error(`${died[1]} exited during start-up (see ${logFile})`);
    if (Date.now() > end) throw new Error(`not ready after ${timeoutMs / 1000} s: ${[...pending].join(', ')}`);
    trackDescendants(stack.pid);
    for (const url of [...pending]) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
        if (res.ok) pending.delete(url);
      } catch {
        // not up yet
      }
    }
    if (pending.size) await sleep(1000);
  }
  // A service answers /readyz as soon as it can serve; identity makes the demo accounts (whose
  // teacher the seed signs in as) and the stack its demo content through the gateway after that.
  // The seed and the measured run start once both are done.
  while (!readFileSync(logFile, 'utf8').includes(readyLine)) {
    if (stack.exitCode !== null) throw new Error(`the stack exited with ${stack.exitCode} (see ${logFile})`);
    if (Date.now() > end) throw new Error(`no "${readyLine}" line after ${timeoutMs / 1000} s (see ${logFile})`);
    await sleep(500);
  }
}

function runChild(cmd, args, { env, timeoutMs, onSpawn }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: 'inherit' });
    onSpawn?.(child);
    const timer = setTimeout(() => {
      console.error(`${path.basename(cmd)} still running after ${timeoutMs / 1000} s: stopping it`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/** The benchmark's broker with the topics created (bench/kafka.ts); resolves its KAFKA_BROKERS. */
function startBenchKafka(timeoutMs) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(bench, 'kafka.ts')], {
    cwd: root,
    env: { ...process.env, KAFKA_BROKERS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Kafka not ready after ${timeoutMs / 1000} s`)), timeoutMs);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const brokers = /^KAFKA_BROKERS=(\S+)$/m.exec(out)?.[1];
      if (brokers) {
        clearTimeout(timer);
        resolve({ child, brokers });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench/kafka.ts exited with ${code}: ${out.trim()}`));
    });
  });
}

async function stopStack(stack, kafkaChild) {
  if (stack) trackDescendants(stack.pid);
  if (kafkaChild) trackDescendants(kafkaChild.pid, 'kafka');
  if (stack && stack.exitCode === null) {
    log('stopping the stack');
    stack.kill('SIGTERM');
    const until = Date.now() + 45_000;
    while (stack.exitCode === null && Date.now() < until) await sleep(250);
  }
  if (kafkaChild && kafkaChild.exitCode === null) kafkaChild.kill('SIGTERM');
  const owners = new Set([...(stack ? ['stack'] : []), ...(kafkaChild ? ['kafka'] : [])]);
  const { killed, left } = await reapTracked(owners, 'Kafka, Postgres, services, gateway, web');
  return killed === 0 && left === 0;
}

/**
 * Waits up to 60 s for the tracked processes of `owners` to end, kills what is left, and reports:
 * `killed` had to be killed, `left` are running even after that.
 */
async function reapTracked(owners, what) {
  const end = Date.now() + 60_000;
  const left = () => [...tracked].filter(([pid, t]) => owners.has(t.owner) && alive(pid, t.start));
  while (left().length && Date.now() < end) await sleep(500);
  const remaining = left();
  for (const [pid, t] of remaining) {
    console.error(`  still running after 60 s: ${t.role} (pid ${pid}), killing it`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await sleep(500);
  const after = left();
  if (after.length) console.error(`  could not stop: ${after.map(([pid, t]) => `${t.role} ${pid}`).join(', ')}`);
  else log(`stopped: ${tracked.size} processes seen (${what}), none left`);
  return { killed: remaining.length, left: after.length };
}

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

/**
 * Starts the product for a benchmark and seeds it (bench/seed.mjs: the Demo District's teacher, a
 * class of `students` signed up by their mailed links, assessments assigned; its JSON in
 * `seedFile`). `topology` 'stack': Kafka with the topics made, a process per service on the fixed
 * ports and the gateway on a free one (the chart's microservices topology); 'all-in-one':
 * `npm start`'s compiled all-in-one (the chart's all-in-one topology: one process, in-process
 * events, calls handed to the services in process), no Kafka. Fills `product` ({ stack, kafka, dataDir, baseUrl }) as it goes, so that a caller
 * interrupted half-way can still `stopProduct(product)`. Output goes to `logFile`.
 */
async function startProduct(
  product,
  topology,
  {
    students,
    seedFile = files.seed,
    logFile = files.log,
    logLevel = process.env.LOG_LEVEL ?? 'info',
    seedEnv = {},
    seedTimeoutMs = 6 * 60_000,
  },
) {
  const allInOne = topology === 'all-in-one';
  const busy = [];
  if (!allInOne)
    for (const [name, port] of Object.entries(SERVICE_PORTS))
      if (!(await portIsFree(port))) busy.push(`${name} ${port}`);
  if (busy.length)
    throw new Error(`stack mode uses fixed service ports that are in use (another stack running?): ${busy.join(', ')}`);
  const gatewayPort = await freePort();
  const webPort = await freePort();
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  product.baseUrl = baseUrl;
  const demoPassword = randomBytes(12).toString('base64url');
  const env = { ...process.env };
  // No SMTP_URL: the stack keeps its mail in DATA_DIR/mailbox, where the seed finds the sign-up links.
  for (const k of ['DATABASE_URL', 'KAFKA_BROKERS', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'SMTP_URL']) delete env[k];
  Object.assign(env, {
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    WEB_PORT: String(webPort),
    // The Demo District, whose demo teacher the seed signs in as (no Free Trial limits).
    DEMO_SEED: 'true',
    DEMO_PASSWORD: demoPassword,
    GENERATION_PROVIDER: 'offline',
    // Seeding signs up and joins a class of students from one IP within minutes.
    RATE_LIMIT_SIGNUP_PER_MINUTE: '10000',
    // Each seeded student opens their mailed sign-up link (POST /api/auth/email/verify, limited per address).
    RATE_LIMIT_EMAIL_PER_MINUTE: '10000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
    RATE_LIMIT_JOIN_PER_MINUTE: '10000',
    // Sessions are seeded before the run: keep them valid for its whole length (no refresh).
    ACCESS_TOKEN_TTL_SECONDS: '3600',
  });
  // undefined: the process's own default (the all-in-one's is warn).
  if (logLevel) env.LOG_LEVEL = logLevel;
  // BENCH_PROFILE_DIR=/some/dir: the services and the gateway write CPU profiles there on exit.
  if (process.env.BENCH_PROFILE_DIR) {
    mkdirSync(process.env.BENCH_PROFILE_DIR, { recursive: true });
    env.BENCH_PROFILE_DIR = path.resolve(process.env.BENCH_PROFILE_DIR);
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import ${path.join(bench, 'profile-hook.mjs')}`.trim();
  }
  const services = allInOne
    ? []
    : Object.entries(SERVICE_PORTS).filter(([name]) => existsSync(path.join(root, 'services', name, 'src/main.ts')));
  if (!allInOne) {
    log('starting Kafka with the event topics created (bench/kafka.ts)');
    product.kafka = await startBenchKafka(4 * 60_000);
    trackDescendants(product.kafka.child.pid, 'kafka');
    env.KAFKA_BROKERS = product.kafka.brokers;
  }
  // One fresh retry if a service still fails its start-up.
  for (let attempt = 1; ; attempt++) {
    product.dataDir = mkdtempSync(path.join(os.tmpdir(), 'checkpoint-bench-'));
    chmodSync(product.dataDir, 0o755); // embedded Postgres runs as the postgres user when we are root
    log(
      `starting the ${allInOne ? 'all-in-one' : 'stack'} (gateway ${baseUrl}, DATA_DIR ${product.dataDir}, log ${path.relative(root, logFile)})`,
    );
    mkdirSync(path.dirname(logFile), { recursive: true });
    const out = openSync(logFile, 'w');
    // scripts/stack.ts itself, not the stack.mjs wrapper: that one also builds the web app, which
    // stack mode does not serve (its Vite dev server does) and the benchmark does not need. The
    // all-in-one as `npm start` runs it, compiled (rebuilt when stale), without the web build.
    const command = allInOne ? ['scripts/start.mjs', '--no-bootstrap'] : ['--import', 'tsx', 'scripts/stack.ts'];
    product.stack = spawn(process.execPath, command, {
      cwd: root,
      env: { ...env, DATA_DIR: product.dataDir },
      stdio: ['ignore', out, out],
      detached: true,
    });
    try {
      await waitReady(
        [`${baseUrl}/readyz`, ...services.map(([, port]) => `http://127.0.0.1:${port}/readyz`)],
        product.stack,
        logFile,
        6 * 60_000,
        // The all-in-one prints its address once its demo content is made (or failed: then the seed says so).
        allInOne ? 'Checkpoint is running at' : undefined,
      );
      break;
    } catch (err) {
      if (attempt >= 2) throw err;
      console.error(`bench: ${err.message}; retrying with a fresh ${topology}`);
      await stopStack(product.stack);
      rmSync(product.dataDir, { recursive: true, force: true });
    }
  }
  trackDescendants(product.stack.pid);
  log(
    `${allInOne ? 'all-in-one' : 'stack'} ready: ${services.map(([n]) => `${n}, `).join('')}gateway; seeding ${students} students`,
  );
  rmSync(seedFile, { force: true });
  const seeded = await runChild(process.execPath, [path.join(bench, 'seed.mjs')], {
    env: {
      ...process.env,
      ...seedEnv,
      BASE_URL: baseUrl,
      BENCH_STUDENTS: String(students),
      BENCH_SEED_FILE: seedFile,
      BENCH_DEMO_PASSWORD: demoPassword,
      // The seed reads the students' sign-up links in DATA_DIR/mailbox.
      BENCH_DATA_DIR: product.dataDir,
      BENCH_SEED_TIMEOUT_MS: String(seedTimeoutMs),
    },
    timeoutMs: seedTimeoutMs + 60_000,
  });
  if (seeded !== 0) throw new Error(`seeding failed (exit ${seeded})`);
  trackDescendants(product.stack.pid);
  return JSON.parse(readFileSync(seedFile, 'utf8'));
}

/** Stops what startProduct started (whatever it got to) and removes its data; true when nothing was left running. */
async function stopProduct(product) {
  const clean = await stopStack(product.stack, product.kafka?.child);
  if (product.dataDir) rmSync(product.dataDir, { recursive: true, force: true });
  return clean;
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
    await startProduct(product, topology, { students: STUDENTS });
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

// Shared with bench/analytics.mjs (which imports this file without running it).
export {
  cpuBetween,
  runChild,
  startProduct,
  stopProduct,
  cpuSnapshot,
  freePort,
  machineBetween,
  machineSnapshot,
  percentile,
  processTable,
  reapTracked,
  startBenchKafka,
  trackDescendants,
};

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
    // Answer saves per second and CPU per save, all-in-one and stack (bench/closed-loop.mjs).
    'closed-loop': () => import('./closed-loop.mjs').then((m) => m.runClosedLoop().then(exitWith)),
    // A school's students open one assessment within 10 s (bench/bell.mjs).
    bell: () => import('./bell.mjs').then((m) => m.runBell().then(exitWith)),
    // Gateway, closed loop and bell in one run, their verdicts together (bench/targets.mjs).
    targets: () => import('./targets.mjs').then((m) => m.runTargets().then(exitWith)),
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
