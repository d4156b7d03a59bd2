// The product a benchmark runs against: stack mode (Kafka with the topics made, a process per
// service on the fixed ports, the gateway on a free one) or the all-in-one, in a fresh DATA_DIR,
// seeded by bench/seed.mjs; and stopping it with nothing left running.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, portIsFree, reapTracked, trackDescendants } from './processes.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');
export const SERVICE_PORTS = { identity: 8101, class: 8102, assessment: 8103, generation: 8104, analytics: 8105 };

const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

export function runChild(cmd, args, { env, timeoutMs, onSpawn }) {
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
export function startBenchKafka(timeoutMs) {
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
 * Starts the product for a benchmark and seeds it (bench/seed.mjs: the Demo District's teacher, a
 * class of `students` signed up by their mailed links, assessments assigned; its JSON in
 * `seedFile`). `topology` 'stack': Kafka with the topics made, a process per service on the fixed
 * ports and the gateway on a free one (the chart's microservices topology); 'all-in-one':
 * `npm start`'s compiled all-in-one (the chart's all-in-one topology: one process, in-process
 * events, calls handed to the services in process), no Kafka. Fills `product` ({ stack, kafka,
 * dataDir, baseUrl }) as it goes, so that a caller interrupted half-way can still
 * `stopProduct(product)`. Output goes to `logFile`; `nodeArgs` go to its Node (e.g. --cpu-prof).
 */
export async function startProduct(
  product,
  topology,
  {
    students,
    seedFile,
    logFile,
    logLevel = process.env.LOG_LEVEL ?? 'info',
    seedEnv = {},
    seedTimeoutMs = 6 * 60_000,
    nodeArgs = [],
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
    product.stack = spawn(process.execPath, [...nodeArgs, ...command], {
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
export async function stopProduct(product) {
  const clean = await stopStack(product.stack, product.kafka?.child);
  if (product.dataDir) rmSync(product.dataDir, { recursive: true, force: true });
  return clean;
}
