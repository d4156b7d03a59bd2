// `npm run bench -- analytics` (or `node bench/analytics.mjs`): the analytics service with a
// district's worth of data. Starts the benchmark's Kafka broker (bench/kafka.ts), an embedded
// Postgres (bench/analytics-postgres.ts) and the analytics service as its own process (its
// main.ts, as stack mode runs it), then:
//   1. seed: 100,000 students, 1,000,000 results written straight into the read model
//      (bench/analytics-seed.mjs; skipped when ANALYTICS_DATA_DIR holds a seeded database);
//   2. http: the district admin's dashboard (GET /api/admin/stats), All Students as the district
//      admin and as a teacher (GET /api/dashboard/students), a class grid (GET
//      /api/classes/{id}/grid), called on the service directly with the gateway's caller headers
//      by a few concurrent clients for a bounded time each; p50/p95/p99 against 200 ms at p95;
//   3. ingest: the service stopped, ANALYTICS_EVENTS realistic events published to Kafka
//      (bench/analytics-events.ts), the service started again and timed until its inbox holds
//      them all: events/s and the CPU of the analytics process, Postgres and Kafka.
// Then stops everything and checks nothing is left. Exit 1 on an error (targets are reported).
//
// Env: ANALYTICS_PARTS (http,ingest), ANALYTICS_DATA_DIR (keep and reuse the seeded Postgres
// there), ANALYTICS_STUDENTS (100000), ANALYTICS_HTTP_CLIENTS (4), ANALYTICS_HTTP_SECONDS (20),
// ANALYTICS_WARMUP_SECONDS (5), ANALYTICS_EVENTS (100000), ANALYTICS_EXPLAIN_MS (log the plan of
// every statement slower than this, with auto_explain, to .cache/bench/analytics-postgres.log;
// its instrumentation slows every statement: not for figures), ANALYTICS_SERVICE_MAIN (another
// build of the service), LOG_LEVEL (info).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import pg from 'pg';
import { checkFigures, seedDistrict } from './analytics-seed.mjs';
import {
  cpuBetween,
  cpuSnapshot,
  freePort,
  machineBetween,
  machineSnapshot,
  reapTracked,
  trackDescendants,
} from './processes.mjs';
import { startBenchKafka } from './product.mjs';
import { percentile } from './stats.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');
const cacheDir = path.join(root, '.cache/bench');
const files = {
  postgresLog: path.join(cacheDir, 'analytics-postgres.log'),
  serviceLog: path.join(cacheDir, 'analytics-service.log'),
  summary: path.join(cacheDir, 'analytics-summary.json'),
};
const PARTS = new Set((process.env.ANALYTICS_PARTS ?? 'http,ingest').split(',').map((p) => p.trim()));
const CLIENTS = Number(process.env.ANALYTICS_HTTP_CLIENTS ?? 4);
const HTTP_SECONDS = Number(process.env.ANALYTICS_HTTP_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.ANALYTICS_WARMUP_SECONDS ?? 5);
const EVENTS = Number(process.env.ANALYTICS_EVENTS ?? 100_000);
const EXPLAIN_MS = process.env.ANALYTICS_EXPLAIN_MS ? Number(process.env.ANALYTICS_EXPLAIN_MS) : undefined;
const HTTP_TARGET_P95 = 200; // ms ("results for everyone")
const GROUP = 'analytics'; // the service's default consumer group
// The service token secret of this run: the benchmark signs its calls as the gateway does.
const SERVICE_TOKEN_SECRET = randomBytes(32).toString('base64url');
const serviceTokenKey = await crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(SERVICE_TOKEN_SECRET),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['sign'],
);
// Another build of the service to compare (e.g. a copy with a proposed change); its path must end
// in services/analytics/src/main.ts (the CPU accounting finds the process by it).
const SERVICE_MAIN = path.resolve(
  process.env.ANALYTICS_SERVICE_MAIN ?? path.join(root, 'services/analytics/src/main.ts'),
);

const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (v) => (v === undefined ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const running = (child) => child && child.exitCode === null && child.signalCode === null;

/** Stops a child with SIGTERM, bounded; SIGKILL after `ms`. */
async function stopChild(child, ms = 30_000) {
  if (!running(child)) return;
  child.kill('SIGTERM');
  const end = Date.now() + ms;
  while (running(child) && Date.now() < end) await sleep(200);
  if (running(child)) child.kill('SIGKILL');
  while (running(child)) await sleep(100);
}

/** A child whose stdout is read until `pattern` matches (its groups resolved), bounded. */
function spawnUntil(args, { env, pattern, timeoutMs, stderrFd, what }) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', stderrFd ?? 'inherit'],
    detached: true,
  });
  const ready = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} not ready after ${timeoutMs / 1000} s`)), timeoutMs);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ match: m, out });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${out.trim().slice(-500)}`));
    });
  });
  return { child, ready };
}

// ---------------------------------------------------------------- the analytics process
async function startAnalytics(ctx) {
  const port = await freePort();
  const out = openSync(files.serviceLog, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', SERVICE_MAIN], {
    cwd: root,
    env: {
      ...ctx.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: ctx.serviceUrl,
      KAFKA_BROKERS: ctx.brokers,
      ANALYTICS_CONSUMER_GROUP: GROUP,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      SERVICE_TOKEN_SECRET,
    },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  trackDescendants(child.pid, 'analytics');
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 3 * 60_000;
  for (;;) {
    if (!running(child))
      throw new Error(`the analytics service exited with ${child.exitCode} (see ${files.serviceLog})`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`the analytics service was not ready after 3 min (see ${files.serviceLog})`);
    await sleep(250);
  }
  return { child, url, pid: child.pid };
}

// ---------------------------------------------------------------- 2. http
/** `clients` loops, each one request at a time until `seconds` are over; latency per request. */
async function load(request, clients, seconds) {
  const times = [];
  let errors = 0;
  let bytes = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const { url, headers } = await request();
        const t0 = performance.now();
        try {
          const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
          const body = await res.arrayBuffer();
          times.push(performance.now() - t0);
          bytes += body.byteLength;
          if (res.status !== 200) errors++;
        } catch {
          times.push(performance.now() - t0);
          errors++;
        }
      }
    }),
  );
  return { times: times.sort((a, b) => a - b), errors, bytes, seconds };
}

async function measureHttp(ctx, service, ids) {
  // As the gateway calls the service: a service token per request (see packages/service-kit/src/caller.ts).
  const caller = async (userId, role) => ({
    'x-checkpoint-service-token': await new SignJWT({ role, tid: ids.tenantId, sid: 'bench', rid: randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer('gateway')
      .setAudience('analytics')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(serviceTokenKey),
  });
  const anyClass = () => {
    const i = Math.floor(Math.random() * ids.classIds.length);
    return { classId: ids.classIds[i], teacherId: ids.teacherIds[Math.floor(i / ids.classesPerTeacher)] };
  };
  const anyTeacher = () => ids.teacherIds[Math.floor(Math.random() * ids.teacherIds.length)];
  const admin = () => caller(ids.adminId, 'admin');
  const endpoints = [
    {
      name: 'admin dashboard, GET /api/admin/stats (district admin)',
      request: async () => ({ url: `${service.url}/api/admin/stats`, headers: await admin() }),
    },
    {
      name: 'All Students, GET /api/dashboard/students (district admin: 100,000)',
      request: async () => ({ url: `${service.url}/api/dashboard/students`, headers: await admin() }),
    },
    {
      name: 'All Students, GET /api/dashboard/students (a teacher: 125)',
      request: async () => ({
        url: `${service.url}/api/dashboard/students`,
        headers: await caller(anyTeacher(), 'teacher'),
      }),
    },
    {
      name: 'class grid, GET /api/classes/{id}/grid (its teacher)',
      request: async () => {
        const { classId, teacherId } = anyClass();
        return { url: `${service.url}/api/classes/${classId}/grid`, headers: await caller(teacherId, 'teacher') };
      },
    },
  ];
  const rows = [];
  const machineBefore = machineSnapshot();
  for (const e of endpoints) {
    if (WARMUP_SECONDS > 0) await load(e.request, CLIENTS, WARMUP_SECONDS);
    trackDescendants(ctx.postgres.pid, 'postgres');
    const cpuBefore = cpuSnapshot({ analytics: service.pid });
    const r = await load(e.request, CLIENTS, HTTP_SECONDS);
    trackDescendants(ctx.postgres.pid, 'postgres');
    const cpu = cpuBetween(cpuBefore, cpuSnapshot({ analytics: service.pid }));
    const p95 = percentile(r.times, 95);
    rows.push({
      name: e.name,
      requests: r.times.length,
      perSecond: r.times.length / HTTP_SECONDS,
      p50: percentile(r.times, 50),
      p95,
      p99: percentile(r.times, 99),
      max: r.times.at(-1),
      errors: r.errors,
      kb: r.bytes / Math.max(1, r.times.length) / 1024,
      cpu: { analytics: cpu.analytics ?? 0, postgres: cpu.postgres ?? 0 },
      met: p95 !== undefined && p95 < HTTP_TARGET_P95 && r.errors === 0,
    });
    log(`${e.name}: p95 ${ms(p95)} ms`);
  }
  return { rows, machine: machineBetween(machineBefore, machineSnapshot()) };
}

function printHttp(http) {
  const table = [
    ['call', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'errors', 'KB', 'CPU s svc/pg', 'p95 target'],
    ...http.rows.map((r) => [
      r.name,
      String(r.requests),
      r.perSecond.toFixed(1),
      ms(r.p50),
      ms(r.p95),
      ms(r.p99),
      ms(r.max),
      String(r.errors),
      r.kb.toFixed(0),
      `${r.cpu.analytics.toFixed(1)}/${r.cpu.postgres.toFixed(1)}`,
      `< ${HTTP_TARGET_P95} ${r.met ? 'met' : 'MISSED'}`,
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  console.log('');
  for (const [i, r] of table.entries()) {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  console.log(
    `${CLIENTS} concurrent clients, ${HTTP_SECONDS} s per call after ${WARMUP_SECONDS} s of warm-up, on the service ` +
      `directly (caller headers, no gateway); CPU s = analytics process / Postgres during the ${HTTP_SECONDS} s`,
  );
  if (http.machine) console.log(http.machine);
}

// ---------------------------------------------------------------- 3. ingest
async function measureIngest(ctx, admin) {
  const inbox = async () =>
    (await admin.query('select count(*)::int as n from analytics.inbox where consumer_group = $1', [GROUP])).rows[0].n;
  const before = await inbox();
  log(`publishing ~${EVENTS} events to Kafka (bench/analytics-events.ts), the analytics service stopped`);
  const pub = spawnUntil(['--import', 'tsx', path.join(bench, 'analytics-events.ts')], {
    env: { ...ctx.env, KAFKA_BROKERS: ctx.brokers, ANALYTICS_EVENTS: String(EVENTS) },
    pattern: /^(\{.*"publishSeconds".*\})$/m,
    timeoutMs: 10 * 60_000,
    what: 'the event publisher',
  });
  const published = JSON.parse((await pub.ready).match[1]);
  await stopChild(pub.child, 10_000);
  log(
    `published ${published.events} events (${published.results} results) in ${published.publishSeconds.toFixed(1)} s; ` +
      `starting the analytics service to consume them`,
  );
  const expected = before + published.events;
  const load = { before: loadavg() };
  const machineBefore = machineSnapshot();
  const started = Date.now();
  const service = await startAnalytics(ctx);
  const readyAt = Date.now();
  trackDescendants(ctx.postgres.pid, 'postgres');
  let cpuBefore = cpuSnapshot({ analytics: service.pid });
  let firstAt;
  let n = before;
  const bound = Date.now() + Number(process.env.ANALYTICS_INGEST_TIMEOUT_MS ?? 20 * 60_000);
  let lastLog = Date.now();
  while (n < expected) {
    if (Date.now() > bound) throw new Error(`ingest: ${n - before} of ${published.events} events after the bound`);
    if (!running(service.child)) throw new Error(`the analytics service exited (see ${files.serviceLog})`);
    await sleep(250);
    n = await inbox();
    if (firstAt === undefined && n > before) {
      firstAt = Date.now();
      trackDescendants(ctx.postgres.pid, 'postgres');
      cpuBefore = cpuSnapshot({ analytics: service.pid });
    }
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`  ${n - before} of ${published.events} events in the inbox`);
    }
  }
  const doneAt = Date.now();
  trackDescendants(ctx.postgres.pid, 'postgres');
  const cpu = cpuBetween(cpuBefore, cpuSnapshot({ analytics: service.pid }));
  load.after = loadavg();
  const machine = machineBetween(machineBefore, machineSnapshot());
  // What the consumers made of them: every result with its figures.
  const { rows } = await admin.query(
    `select (select count(*)::int from analytics.results where tenant_id = $1) as results,
            (select results from analytics.tenant_figures where tenant_id = $1) as figured`,
    [published.tenantId],
  );
  if (rows[0].results !== published.results || rows[0].figured !== published.results)
    throw new Error(
      `ingest: ${rows[0].results} results stored, ${rows[0].figured} in the figures, of ${published.results}`,
    );
  await stopChild(service.child);
  const seconds = (doneAt - (firstAt ?? readyAt)) / 1000;
  return {
    events: published.events,
    results: published.results,
    byType: published.byType,
    publishSeconds: published.publishSeconds,
    startSeconds: (readyAt - started) / 1000,
    seconds,
    perSecond: published.events / seconds,
    cpu,
    load,
    machine,
  };
}

function printIngest(r) {
  const cores = (role) =>
    `${role} ${(r.cpu[role] ?? 0).toFixed(1)} s (${((r.cpu[role] ?? 0) / r.seconds).toFixed(2)} cores)`;
  console.log(
    `\nIngest: ${r.events} events (${r.results} ResultSubmitted with 10 answers each, the rest users, classes, ` +
      `enrolments, assessments, questions) consumed in ${r.seconds.toFixed(1)} s from the first stored: ` +
      `${r.perSecond.toFixed(0)} events/s (${(r.results / r.seconds).toFixed(0)} results/s); ` +
      `published beforehand in ${r.publishSeconds.toFixed(1)} s, service start ${r.startSeconds.toFixed(1)} s`,
  );
  console.log(
    `CPU while consuming: ${cores('analytics')}, ${cores('postgres')}, ${cores('kafka')}; ` +
      `${((1000 * ((r.cpu.analytics ?? 0) + (r.cpu.postgres ?? 0))) / r.events).toFixed(2)} CPU ms per event ` +
      `(analytics + Postgres); load average before/after ${r.load.before} / ${r.load.after}`,
  );
  if (r.machine) console.log(r.machine);
}

// ---------------------------------------------------------------- the run
export async function runAnalytics() {
  mkdirSync(cacheDir, { recursive: true });
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'KAFKA_BROKERS', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[k];
  const keep = process.env.ANALYTICS_DATA_DIR ? path.resolve(process.env.ANALYTICS_DATA_DIR) : undefined;
  const dataDir = keep ?? mkdtempSync(path.join(os.tmpdir(), 'checkpoint-analytics-bench-'));
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755); // embedded Postgres runs as the postgres user when we are root
  writeFileSync(files.serviceLog, '');
  const ctx = { env };
  let kafka;
  let service;
  let admin;
  let exitCode = 0;
  const summary = { date: new Date().toISOString(), cpus: os.cpus().length };
  const cleanup = async () => {
    await admin?.end().catch(() => {});
    await stopChild(service?.child);
    await stopChild(ctx.postgres?.child, 60_000);
    await stopChild(kafka?.child, 60_000);
    const { left } = await reapTracked(new Set(['analytics', 'postgres', 'kafka']), 'Kafka, Postgres, analytics');
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
    return left === 0;
  };
  const interrupt = async (signal) => {
    console.error(`\n${signal}: cleaning up`);
    await cleanup();
    process.exit(130);
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    log('starting Kafka with the event topics created (bench/kafka.ts)');
    kafka = await startBenchKafka(4 * 60_000);
    trackDescendants(kafka.child.pid, 'kafka');
    ctx.brokers = kafka.brokers;

    log(`starting Postgres (data ${dataDir}${keep ? ', kept' : ''}, log ${path.relative(root, files.postgresLog)})`);
    const pgLog = openSync(files.postgresLog, 'w');
    const pgStart = spawnUntil(['--import', 'tsx', path.join(bench, 'analytics-postgres.ts')], {
      env: { ...env, ANALYTICS_PG_DIR: path.join(dataDir, 'postgres') },
      pattern: /^ADMIN_URL=(\S+)\nSERVICE_URL=(\S+)$/m,
      timeoutMs: 3 * 60_000,
      stderrFd: pgLog,
      what: 'Postgres',
    });
    closeSync(pgLog);
    ctx.postgres = { child: pgStart.child, pid: pgStart.child.pid };
    const { match } = await pgStart.ready;
    [, ctx.adminUrl, ctx.serviceUrl] = match;
    trackDescendants(ctx.postgres.pid, 'postgres');
    admin = new pg.Client({ connectionString: ctx.adminUrl });
    await admin.connect();
    await admin.query('alter role cp_analytics reset all'); // no auto_explain left from an earlier run

    log('starting the analytics service (migrations)');
    service = await startAnalytics(ctx);
    const seeder = new pg.Client({ connectionString: ctx.serviceUrl, options: '-c search_path=analytics' });
    await seeder.connect();
    let seeded;
    try {
      log('seeding the district (bench/analytics-seed.mjs)');
      const t0 = Date.now();
      seeded = await seedDistrict(seeder, { reseed: process.env.ANALYTICS_RESEED === '1', log: console.log });
      await checkFigures(seeder, seeded.ids.tenantId);
      summary.seed = { ...seeded.shape, seconds: (Date.now() - t0) / 1000, steps: seeded.steps };
      log(`district ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; its figures match its results`);
    } finally {
      await seeder.end();
    }

    if (PARTS.has('http')) {
      if (EXPLAIN_MS !== undefined) {
        // Plans of the service's own statements slower than EXPLAIN_MS, with actual rows and times.
        await stopChild(service.child);
        for (const sql of [
          "alter role cp_analytics set session_preload_libraries = 'auto_explain'",
          `alter role cp_analytics set auto_explain.log_min_duration = ${Math.round(EXPLAIN_MS)}`,
          'alter role cp_analytics set auto_explain.log_analyze = on',
          'alter role cp_analytics set auto_explain.log_buffers = on',
        ])
          await admin.query(sql);
        service = await startAnalytics(ctx);
        log(
          `auto_explain on: plans of statements over ${EXPLAIN_MS} ms go to ${path.relative(root, files.postgresLog)}`,
        );
      }
      const load = { before: loadavg() };
      log(`measuring the read calls (${CLIENTS} clients, ${HTTP_SECONDS} s each, load average ${load.before})`);
      const http = await measureHttp(ctx, service, {
        ...seeded.ids,
        classesPerTeacher: seeded.shape.classesPerTeacher,
      });
      load.after = loadavg();
      summary.http = { ...http, clients: CLIENTS, seconds: HTTP_SECONDS, warmupSeconds: WARMUP_SECONDS, load };
      printHttp(http);
      console.log(`load average before/after ${load.before} / ${load.after} on ${os.cpus().length} CPUs`);
      if (http.rows.some((r) => r.errors > 0)) exitCode = 1;
      if (EXPLAIN_MS !== undefined) await admin.query('alter role cp_analytics reset all');
    }

    if (PARTS.has('ingest')) {
      await stopChild(service.child);
      service = undefined;
      summary.ingest = await measureIngest(ctx, admin);
      printIngest(summary.ingest);
    }
    writeFileSync(files.summary, JSON.stringify(summary, null, 2));
    log(`summary: ${path.relative(root, files.summary)}`);
  } catch (err) {
    console.error(`bench analytics: ${err instanceof Error ? err.message : err}`);
    exitCode = 1;
  } finally {
    if (!(await cleanup())) exitCode = 1;
  }
  process.exit(exitCode);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runAnalytics();
