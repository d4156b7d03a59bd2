// The teacher of the benchmark's class, watching its results while the class submits (bench/run.mjs
// starts it before the measured class crowd): like the class results panel of the web app
// (web/src/features/results/useLiveResults.ts) it keeps the live stream GET /api/dashboard/live
// open and fetches GET /api/classes/{id}/results again through the gateway LIVE_REFRESH_DELAY_MS
// (300, the web's value) after the first `result` event of a burst (later events join that fetch,
// as the page does); LIVE_REFRESH=debounce: that long after the last event of a burst (each event
// restarts the delay: the page's first policy, which starved while a class kept submitting). One fetch at a time, a refresh due meanwhile runs after it. For
// each result of the measured assessment it records when a fetch first listed it. BACKSTOP_MS > 0:
// also a fetch after that long without one (the page has none). VISIBILITY_MODE=poll: a fetch
// every POLL_MS instead, no stream.
//
// bench/run.mjs joins these times with the time each submit answered 201 (the class crowd writes them to a
// file) to give the submit → visible delay. Node built-ins only.
//
// Env: BASE_URL, SEED_FILE, OUT (JSON written at the end), EXPECT (results to wait for),
// VISIBILITY_TIMEOUT_MS (hard bound, default 6 min). Prints `VISIBILITY_READY` once watching.
// The teacher's session: `teacher` in the seed file ({session, refresh, csrf}).
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from './session.mjs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const seed = JSON.parse(readFileSync(process.env.SEED_FILE ?? new URL('.seed.json', import.meta.url), 'utf8'));
const OUT = process.env.OUT ?? 'visibility.json';
const EXPECT = Number(process.env.EXPECT ?? seed.students.length);
const MODE = process.env.VISIBILITY_MODE ?? 'live';
const POLL_MS = Number(process.env.POLL_MS ?? 100);
const BACKSTOP_MS = Number(process.env.BACKSTOP_MS ?? 0);
// web/src/features/results/useLiveResults.ts LIVE_REFRESH_DELAY_MS: the page refetches this long
// after the last notice of a burst.
const REFRESH_DELAY_MS = Number(process.env.LIVE_REFRESH_DELAY_MS ?? 300);
const REFRESH = process.env.LIVE_REFRESH === 'debounce' ? 'debounce' : 'throttle';
const DEADLINE = Date.now() + Number(process.env.VISIBILITY_TIMEOUT_MS ?? 6 * 60_000);

function expectStatus(res, status, what) {
  if (res.status !== status)
    throw new Error(`visibility: ${what} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/** The seed's teacher, signed in by bench/seed.mjs. */
function teacherSession() {
  if (!seed.teacher?.session) throw new Error('visibility: the seed file has no teacher session (bench/seed.mjs)');
  const teacher = new Session(BASE_URL);
  teacher.cookies.set('cp_session', seed.teacher.session);
  if (seed.teacher.refresh) teacher.cookies.set('cp_refresh', seed.teacher.refresh);
  if (seed.teacher.csrf) teacher.cookies.set('cp_csrf', seed.teacher.csrf);
  return { teacher, how: 'seed file' };
}

const seen = new Map(); // studentId → {at, resultId, submittedAt}
const fetches = { live: 0, backstop: 0, poll: 0, initial: 0, ms: [], errors: 0 };
let lastFetchAt = 0;
let inFlight;
let again;
let events = 0;
let debounce;

async function fetchResults(teacher, classId, why) {
  const t0 = Date.now();
  fetches[why]++;
  try {
    const res = await fetch(new URL(`/api/classes/${classId}/results`, BASE_URL), {
      headers: teacher.headers(),
      signal: AbortSignal.timeout(30_000),
    });
    const rows = await res.json();
    const at = Date.now();
    fetches.ms.push(at - t0);
    if (res.status !== 200 || !Array.isArray(rows)) {
      fetches.errors++;
      return;
    }
    for (const r of rows)
      if (r.assessmentId === seed.assessmentId && !seen.has(r.studentId))
        seen.set(r.studentId, { at, resultId: r.id, submittedAt: Date.parse(r.submittedAt) });
  } catch {
    fetches.errors++;
  } finally {
    lastFetchAt = Date.now();
  }
}

/** One fetch at a time; a request during a fetch makes one more fetch after it (as RTK Query refetches). */
function refresh(teacher, classId, why) {
  if (inFlight) {
    again ??= why;
    return inFlight;
  }
  inFlight = fetchResults(teacher, classId, why).finally(() => {
    inFlight = undefined;
    const next = again;
    again = undefined;
    if (next) void refresh(teacher, classId, next);
  });
  return inFlight;
}

async function liveStream(teacher, classId, signal) {
  const res = await fetch(new URL(`/api/dashboard/live?classId=${classId}`, BASE_URL), {
    headers: { ...teacher.headers(), accept: 'text/event-stream' },
    signal,
  });
  if (res.status !== 200) throw new Error(`visibility: live stream answered ${res.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let opened = false;
  return {
    opened: new Promise((resolve) => {
      void (async () => {
        try {
          for await (const chunk of res.body) {
            if (!opened) {
              opened = true;
              resolve();
            }
            buffer += decoder.decode(chunk, { stream: true });
            let nl;
            while ((nl = buffer.indexOf('\n')) >= 0) {
              const line = buffer.slice(0, nl).replace(/\r$/, '');
              buffer = buffer.slice(nl + 1);
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line === '') {
                if (event === 'result') {
                  events++;
                  if (REFRESH === 'debounce') clearTimeout(debounce);
                  if (REFRESH === 'debounce' || debounce === undefined)
                    debounce = setTimeout(() => {
                      debounce = undefined;
                      void refresh(teacher, classId, 'live');
                    }, REFRESH_DELAY_MS);
                }
                event = '';
              }
            }
          }
        } catch {
          // aborted at the end
        }
        resolve();
      })();
    }),
  };
}

let finish;
async function main() {
  const { teacher, how } = await teacherSession();
  const classId =
    seed.classId ??
    expectStatus(
      await teacher.request('GET', `/api/assessments/${seed.assessmentId}`),
      200,
      'the teacher’s GET of the assessment',
    ).classId;
  const abort = new AbortController();
  if (MODE === 'live') await (await liveStream(teacher, classId, abort.signal)).opened;
  await refresh(teacher, classId, 'initial');
  const timer = setInterval(
    () => {
      if (MODE === 'poll') void refresh(teacher, classId, 'poll');
      else if (BACKSTOP_MS > 0 && Date.now() - lastFetchAt >= BACKSTOP_MS) void refresh(teacher, classId, 'backstop');
    },
    MODE === 'poll' ? POLL_MS : 100,
  );
  console.log(`VISIBILITY_READY teacher ${how}, class ${classId}, mode ${MODE}`);
  await new Promise((resolve) => {
    finish = resolve;
    const check = setInterval(() => {
      if (seen.size >= EXPECT || Date.now() > DEADLINE) {
        clearInterval(check);
        resolve();
      }
    }, 100);
  });
  clearInterval(timer);
  clearTimeout(debounce);
  abort.abort();
  await inFlight;
  write({ classId, how });
  process.exit(0);
}

function write(extra = {}) {
  writeFileSync(
    OUT,
    JSON.stringify(
      {
        mode: MODE,
        refresh: REFRESH,
        refreshDelayMs: REFRESH_DELAY_MS,
        backstopMs: BACKSTOP_MS,
        ...extra,
        events,
        fetches,
        seen: Object.fromEntries(seen),
      },
      null,
      1,
    ),
  );
}

process.once('SIGTERM', () => (finish ? finish() : process.exit(1)));
main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
