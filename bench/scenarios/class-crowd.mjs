// A class-sized crowd taking one assessment through the gateway. Each student (one of the seeded
// ones in SEED_FILE) arrives within the first ARRIVAL_S seconds (a class does not click in the same
// millisecond), opens the assessment as the taking page does (the assessment, then its questions
// and the student's saved answers together), saves an answer per question (sometimes changes it
// and saves again) with 0.5–1.5 s of think time before each save, then submits once. Run by
// bench/run.mjs, which seeds bench/.seed.json first (bench/seed.mjs), and runs it twice: a warm-up
// on the class's other assessment (PHASE=warmup), then the measured run.
//
// Node built-ins only: each student has its own keep-alive agent (at most 2 connections, for the
// two calls made at once) and cookies. A call's time runs from writing the request on a connected
// socket to the answer's last byte (connection set-up excluded). Every call must answer 2xx; other
// statuses, timeouts (30 s) and socket errors count as the call's errors.
//
// Env: BASE_URL, SEED_FILE, SUMMARY_FILE (JSON written at the end: per call count, errors by
// status, p50/p95/p99/avg/max ms; students finished; the run's seconds; own CPU seconds), VUS
// (students, default all seeded), PHASE (measure, warmup or extra:N), PLAN (bell: open and save
// the first answer only, no submit), ARRIVAL_S (5), MAX_DURATION_S (180: students unfinished
// then are counted as such), SUBMIT_LOG (file: one `submitted <student> <epoch ms>` line per 2xx
// submit), REQUESTS_CSV (file: every request with its start time, call, status and ms).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { summarize } from '../stats.mjs';

export const CALLS = ['open_assessment', 'save_answer', 'submit'];
const CHANGE_RATE = 0.3; // share of questions answered twice (the student changes their mind)
const CORRECT_RATE = 0.6;
const TIMEOUT_MS = 30_000;

function pickAnswer(q, random, avoid) {
  const wrong = q.options.filter((o) => o !== q.correctAnswer && o !== avoid);
  if (random() < CORRECT_RATE && q.correctAnswer !== avoid) return q.correctAnswer;
  return wrong[Math.floor(random() * wrong.length)] ?? q.options[0];
}

/**
 * What one student does, in order: steps of `{ waitMs, calls }`, each call `{ call, method, path,
 * body? }`; the calls of one step are made at once, after waiting `waitMs`.
 */
export function studentPlan(target, { arrivalSeconds = 5, random = Math.random, bell = false } = {}) {
  const base = `/api/assessments/${target.assessmentId}`;
  const think = () => 500 + random() * 1000;
  const open = (path) => ({ call: 'open_assessment', method: 'GET', path });
  const steps = [
    { waitMs: random() * arrivalSeconds * 1000, calls: [open(base)] },
    { waitMs: 0, calls: [open(`${base}/questions`), open(`${base}/responses`)] },
  ];
  let clientSeq = 0;
  const save = (q, answer) => ({
    waitMs: think(),
    calls: [
      {
        call: 'save_answer',
        method: 'POST',
        path: '/api/responses',
        body: { assessmentId: target.assessmentId, questionId: q.id, answer, clientSeq: ++clientSeq },
      },
    ],
  });
  // The bell (bench/bell.mjs): the whole school opens it at once and saves a first answer.
  if (bell) return [...steps, save(target.questions[0], pickAnswer(target.questions[0], random))];
  for (const q of target.questions) {
    const first = pickAnswer(q, random);
    steps.push(save(q, first));
    if (random() < CHANGE_RATE) steps.push(save(q, pickAnswer(q, random, first)));
  }
  steps.push({
    waitMs: think(),
    calls: [{ call: 'submit', method: 'POST', path: '/api/results', body: { assessmentId: target.assessmentId } }],
  });
  return steps;
}

/** One HTTP call; resolves `{ status, ms, startedAt }` (status 0: no answer). Never rejects. */
function request(baseUrl, agent, headers, { method, path, body }) {
  return new Promise((resolve) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const startedAt = Date.now();
    let start = performance.now();
    const done = (status) => resolve({ status, ms: performance.now() - start, startedAt });
    const req = http.request(new URL(path, baseUrl), {
      method,
      agent,
      timeout: TIMEOUT_MS,
      headers: text === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(text) },
    });
    req.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (start = performance.now()));
    });
    req.on('response', (res) => {
      res.on('error', () => done(0));
      res.on('end', () => done(res.statusCode ?? 0));
      res.resume();
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => done(0));
    req.end(text);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const seedFile = process.env.SEED_FILE ?? new URL('../.seed.json', import.meta.url);
  const seed = JSON.parse(readFileSync(seedFile, 'utf8'));
  const baseUrl = process.env.BASE_URL ?? seed.baseUrl;
  const students = seed.students.slice(0, Number(process.env.VUS ?? seed.students.length));
  const phase = process.env.PHASE ?? 'measure';
  // PHASE: measure (the seed's assessment), warmup (its warm-up one) or extra:N (its Nth extra one).
  const extra = /^extra:(\d+)$/.exec(phase);
  const target = extra ? seed.extra?.[Number(extra[1])] : phase === 'warmup' ? seed.warmup : seed;
  if (!target) throw new Error(`class crowd: the seed has no assessment for PHASE=${phase}`);
  const bell = process.env.PLAN === 'bell';
  const arrivalSeconds = Number(process.env.ARRIVAL_S ?? 5);
  const maxMs = Number(process.env.MAX_DURATION_S ?? 180) * 1000;
  const { SUBMIT_LOG, REQUESTS_CSV, SUMMARY_FILE = 'summary.json' } = process.env;
  if (SUBMIT_LOG) writeFileSync(SUBMIT_LOG, '');

  const times = Object.fromEntries(CALLS.map((c) => [c, []]));
  const failures = Object.fromEntries(CALLS.map((c) => [c, {}]));
  const rows = [];
  let finished = 0;
  let stopped = false;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();

  const runStudent = async (student) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const cookies = { cp_session: student.session, cp_refresh: student.refresh, cp_csrf: student.csrf };
    const headers = {
      'content-type': 'application/json',
      'x-csrf-token': student.csrf,
      cookie: Object.entries(cookies)
        .filter(([, v]) => v)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('; '),
    };
    try {
      for (const step of studentPlan(target, { arrivalSeconds, bell })) {
        await sleep(step.waitMs);
        if (stopped) return;
        const answers = await Promise.all(step.calls.map((c) => request(baseUrl, agent, headers, c)));
        if (stopped) return;
        for (const [i, { status, ms, startedAt }] of answers.entries()) {
          const { call } = step.calls[i];
          if (status > 0) times[call].push(ms);
          const ok = status >= 200 && status < 300;
          if (!ok) failures[call][status] = (failures[call][status] ?? 0) + 1;
          if (REQUESTS_CSV) rows.push(`${startedAt},${call},${status},${ms.toFixed(3)}`);
          if (ok && call === 'submit' && SUBMIT_LOG)
            appendFileSync(SUBMIT_LOG, `submitted ${student.id} ${Date.now()}\n`);
        }
      }
      finished++;
    } finally {
      agent.destroy();
    }
  };

  let timer;
  await Promise.race([Promise.all(students.map(runStudent)), new Promise((r) => (timer = setTimeout(r, maxMs)))]);
  clearTimeout(timer);
  stopped = true;
  const cpu = process.cpuUsage(cpuBefore);
  const calls = Object.fromEntries(
    CALLS.map((c) => {
      const errors = Object.values(failures[c]).reduce((n, k) => n + k, 0);
      return [
        c,
        { ...summarize(times[c]), requests: times[c].length + (failures[c][0] ?? 0), errors, failures: failures[c] },
      ];
    }),
  );
  const summary = {
    seconds: (performance.now() - started) / 1000,
    students: students.length,
    finished,
    requests: Object.values(calls).reduce((n, c) => n + c.requests, 0),
    calls,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  writeFileSync(SUMMARY_FILE, JSON.stringify(summary, null, 2));
  if (REQUESTS_CSV) writeFileSync(REQUESTS_CSV, `started_ms,call,status,ms\n${rows.join('\n')}\n`);
  console.log(`class crowd: ${finished} of ${students.length} students finished; summary in ${SUMMARY_FILE}`);
  process.exit(0); // the unfinished students' timers and sockets, if any, end with the process
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
