// Faults survived, checked the way Jepsen checks (docs/security.md, "Faults survived"). Stack mode with real
// Kafka: every service and the gateway in processes of their own. Students save uniquely
// identified answers and submit through the gateway, and every try is recorded, while the test
// (a) kills -9 the assessment service and starts it again, (b) stops the Kafka broker for 30 s,
// (c) crashes Postgres (immediate shutdown) and starts it on the same data dir. Then the history
// is checked against the databases: every acknowledged save stored once with its latest
// acknowledged value, no value nobody sent, every acknowledged submit counted once; and within a
// bounded wait every read model (class counts, analytics, practice) agrees with the results.
// Probes mean what Kubernetes does with them: /readyz is "can serve requests" (Postgres
// answers), so every service stays ready while Kafka is down (events wait in the outbox, which the
// metrics show), a restarted service is ready as soon as it serves, and a Postgres outage makes
// the services not ready. Every process's /readyz is probed each second throughout.
// Run by `npm test -- faults` (vitest -c e2e/faults/vitest.config.ts).
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drive, seed, type Seed } from './driver.ts';
import { checkSaves, checkSubmits, expectedClassCounts, readModelDisagreements, triesBetween } from './history.ts';
import { readModels, readResponses, readResults, unpublishedEvents, withClient } from './observe.ts';
import { root, SERVICES, startFaultStack, type FaultStack, type ServiceName } from './stack.ts';

const STUDENTS = 30;
const ASSESSMENTS = 6;
const QUESTIONS = 5;
const KAFKA_OUTAGE_MS = 30_000;
/** How long an answer-less operation is retried after the driver stopped starting new ones. */
const GIVE_UP_AFTER_STOP_MS = 45_000;
const CONVERGENCE_BOUND_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let stack: FaultStack | undefined;

interface ReadyProbe {
  at: number;
  name: ServiceName;
  /** The /readyz status, or 0 when the process did not answer (not running, not listening). */
  status: number;
}

/** Probes every service's /readyz each second, and the assessment service's outbox metrics, until stopped. */
function watch(s: FaultStack, now: () => number) {
  const probes: ReadyProbe[] = [];
  const outbox: { at: number; unpublished: number; busReady: number }[] = [];
  let running = true;
  const status = (url: string) =>
    fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
  const loop = (async () => {
    while (running) {
      const at = now();
      await Promise.all([
        ...SERVICES.map(async (name) => probes.push({ at, name, status: await status(`${s.urlOf(name)}/readyz`) })),
        (async () => {
          const text = await fetch(s.metricsUrlOf('assessment'), { signal: AbortSignal.timeout(3_000) }).then(
            (r) => r.text(),
            () => '',
          );
          const unpublished = /checkpoint_outbox_unpublished_events\{service="assessment"\} (\d+)/.exec(text);
          const busReady = /checkpoint_event_bus_ready\{service="assessment"\} (\d+)/.exec(text);
          if (unpublished && busReady)
            outbox.push({ at, unpublished: Number(unpublished[1]), busReady: Number(busReady[1]) });
        })(),
      ]);
      await sleep(Math.max(0, 1_000 - (now() - at)));
    }
  })();
  return {
    probes,
    outbox,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** After a restart: when the process first answered /healthz (serving) and /readyz 200 (ready). */
async function serveAndReadyTimes(s: FaultStack, name: ServiceName, now: () => number, timeoutMs: number) {
  const end = now() + timeoutMs;
  let serving: number | undefined;
  for (;;) {
    const ok = (path: string) =>
      fetch(`${s.urlOf(name)}${path}`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => r.ok,
        () => false,
      );
    if (serving === undefined && (await ok('/healthz'))) serving = now();
    if (serving !== undefined && (await ok('/readyz'))) return { serving, ready: now() };
    if (now() > end) throw new Error(`${name} not ready ${timeoutMs / 1000} s after its restart:\n${s.logTail(name)}`);
    await sleep(100);
  }
}

beforeAll(async () => {
  const started = Date.now();
  stack = await startFaultStack({
    logDir: path.join(root, '.cache/faults'),
    readyTimeoutMs: 120_000,
    env: {
      GENERATION_PROVIDER: 'offline',
      RATE_LIMIT_SIGNUP_PER_MINUTE: '10000',
      // Each sign-up opens its mailed link (POST /api/auth/email/verify, limited per address).
      RATE_LIMIT_EMAIL_PER_MINUTE: '10000',
      RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
      RATE_LIMIT_JOIN_PER_MINUTE: '10000',
      RATE_LIMIT_GENERATION_PER_MINUTE: '1000',
      ACCESS_TOKEN_TTL_SECONDS: '3600',
      // The timed attempt below is submitted by the close sweep within a second of coming due.
      ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS: '1000',
    },
  });
  console.log(`[faults] Postgres, Kafka, 5 services and the gateway ready in ${secs(Date.now() - started)}`);
});

afterAll(async () => {
  await stack?.stop();
});

it('when the assessment service is killed, Kafka is down for 30 s and Postgres crashes, then no acknowledged save or submit is lost or doubled and every read model converges', async () => {
  const s = stack!;
  const seedStart = Date.now();
  const seeded: Seed = await seed(s.baseUrl, { students: STUDENTS, assessments: ASSESSMENTS, questions: QUESTIONS });
  console.log(`[faults] seeded in ${secs(Date.now() - seedStart)}`);

  const t0 = Date.now();
  const now = () => Date.now() - t0;
  const timeline: string[] = [];
  const mark = (what: string) => {
    timeline.push(`${secs(now()).padStart(8)}  ${what}`);
    console.log(`[faults] ${secs(now())}: ${what}`);
  };
  let stopAt: number | undefined;
  const watcher = watch(s, now);
  let restart: { started: number; serving: number; ready: number } | undefined;
  const driver = drive(seeded, {
    now,
    stopped: () => stopAt !== undefined,
    giveUpAt: () => (stopAt === undefined ? Infinity : stopAt + GIVE_UP_AFTER_STOP_MS),
    rounds: [4, 9],
    thinkMs: [200, 600],
    correctRate: 0.6,
  });

  const at = async (ms: number) => sleep(Math.max(0, ms - now()));
  const windows: Record<'assessment' | 'kafka' | 'postgres', { from: number; to: number }> = {
    assessment: { from: Infinity, to: Infinity },
    kafka: { from: Infinity, to: Infinity },
    postgres: { from: Infinity, to: Infinity },
  };
  try {
    await at(8_000);
    windows.assessment.from = now();
    mark('kill -9 assessment service');
    await s.kill9('assessment');
    const started = now();
    await s.start('assessment');
    restart = { started, ...(await serveAndReadyTimes(s, 'assessment', now, 90_000)) };
    windows.assessment.to = now();
    mark('assessment service ready again');

    await at(windows.assessment.to + 5_000);
    mark('stopping the Kafka broker');
    await s.kafka.stopBroker();
    windows.kafka.from = now();
    mark('Kafka broker down');
    await sleep(KAFKA_OUTAGE_MS);
    mark('starting the Kafka broker');
    await s.kafka.startBroker();
    windows.kafka.to = now();
    mark('Kafka broker up again');

    await sleep(8_000);
    windows.postgres.from = now();
    mark('Postgres crashed (immediate shutdown)');
    await s.postgres.crash();
    await sleep(2_000);
    await s.postgres.start();
    windows.postgres.to = now();
    mark('Postgres started again on the same data dir');

    await sleep(10_000);
  } finally {
    stopAt = now();
    mark('driver stops starting new operations');
  }
  const history = await driver;
  const settled = now();
  mark('every operation answered or given up');
  await watcher.stop();

  const { responses, results } = await withClient(s.adminUrl, async (c) => ({
    responses: await readResponses(c),
    results: await readResults(c),
  }));
  const saves = checkSaves(history.saves, responses);
  const submits = checkSubmits(history.submits, results, responses);

  // Read models: polled until they agree with the assessment service's results, bounded.
  let disagreements: string[];
  let convergedAt: number | undefined;
  const until = Date.now() + CONVERGENCE_BOUND_MS;
  for (;;) {
    try {
      disagreements = await withClient(s.adminUrl, async (c) =>
        readModelDisagreements(results, await readModels(c, seeded.classId, seeded.tenantId)),
      );
      // The class counts as the teacher reads them, through the gateway.
      const cls = await seeded.teacher.get(`/api/classes/${seeded.classId}`);
      const want = expectedClassCounts(results);
      const got = { below: cls.body?.belowStandard, at: cls.body?.atStandard, above: cls.body?.aboveStandard };
      if (cls.status !== 200 || got.below !== want.below || got.at !== want.at || got.above !== want.above)
        disagreements.push(
          `GET /api/classes/{id}: ${cls.status} ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
        );
    } catch (error) {
      disagreements = [`reading the read models failed: ${error instanceof Error ? error.message : String(error)}`];
    }
    if (disagreements.length === 0) {
      convergedAt = now();
      break;
    }
    if (Date.now() > until) break;
    await sleep(500);
  }
  if (convergedAt !== undefined) mark('read models agree with the results');
  const outbox = await withClient(s.adminUrl, unpublishedEvents);

  const tries = Object.fromEntries([...history.figures.tries].sort(([a], [b]) => a.localeCompare(b)));
  const submitsAcked = history.submits.filter((o) => o.outcome === 'acked').length;
  const during = (name: keyof typeof windows) => {
    const { from, to } = windows[name];
    const sv = triesBetween(history.saves, from, to);
    const sb = triesBetween(history.submits, from, to);
    return {
      sv,
      sb,
      line:
        `${name.padEnd(10)} ${secs(to - from).padStart(7)}: saves ${sv.acked} acknowledged, failed tries ` +
        `${JSON.stringify(sv.failed)}; submits ${sb.acked} acknowledged, failed tries ${JSON.stringify(sb.failed)}`,
    };
  };
  const afterFaults = triesBetween(history.saves, windows.postgres.to, Infinity);
  // Readiness as Kubernetes would have seen it.
  const notReadyBetween = (from: number, to: number) =>
    watcher.probes.filter((p) => p.at >= from && p.at <= to && p.status !== 200);
  const kafkaNotReady = notReadyBetween(windows.kafka.from, windows.kafka.to);
  const postgresNotReady = notReadyBetween(windows.postgres.from, windows.postgres.to + 10_000);
  const outboxDuringKafka = watcher.outbox.filter((o) => o.at >= windows.kafka.from && o.at <= windows.kafka.to);
  const readinessLines = [
    `assessment restarted: serving ${secs(restart!.serving - restart!.started)} after start, ready ${secs(restart!.ready - restart!.started)} after start`,
    `Kafka down ${secs(windows.kafka.to - windows.kafka.from)}: ${watcher.probes.filter((p) => p.at >= windows.kafka.from && p.at <= windows.kafka.to).length} /readyz probes, ${kafkaNotReady.length} not 200 ${JSON.stringify(kafkaNotReady.slice(0, 5))}`,
    `  assessment outbox meanwhile (metrics): up to ${Math.max(0, ...outboxDuringKafka.map((o) => o.unpublished))} unpublished events, event bus ready ${[...new Set(outboxDuringKafka.map((o) => o.busReady))].join('/')}`,
    `Postgres crash: ${postgresNotReady.length} /readyz probes not 200 (${[...new Set(postgresNotReady.map((p) => p.name))].join(', ')})`,
  ];
  console.log(
    [
      '',
      'Fault test timeline:',
      ...timeline,
      '',
      'During each fault (from the fault until the process was ready again: /readyz, broker started, server up):',
      ...(['assessment', 'kafka', 'postgres'] as const).map((n) => `  ${during(n).line}`),
      '',
      'Readiness (/readyz of every service, probed each second):',
      ...readinessLines.map((l) => `  ${l}`),
      '',
      `students ${STUDENTS}, assessments ${ASSESSMENTS} × ${QUESTIONS} questions`,
      `saves: ${history.saves.length} sent, ${saves.figures.acked} acknowledged, ${saves.figures.refused} refused, ` +
        `${saves.figures.unknown} never answered (${saves.figures.unknownButStored} of those stored all the same), ` +
        `${history.saves.filter((o) => o.attempts.length > 1).length} needed a retry; ` +
        `${saves.figures.pairs} (student, question) pairs, ${responses.length} rows stored`,
      `submits: ${history.submits.length} sent, ${submitsAcked} acknowledged, ` +
        `${history.submits.filter((o) => o.outcome === 'unknown').length} without an answer ` +
        `(${submits.unknownButStored} stored), ${results.length} results stored`,
      `tries by answer: ${JSON.stringify(tries)}; retries ${history.figures.retries}; ` +
        `503s ${history.figures.tries.get('503') ?? 0}`,
      `convergence: ${
        convergedAt === undefined
          ? `NOT within ${secs(CONVERGENCE_BOUND_MS)}`
          : `${secs(convergedAt - settled)} after the last operation, ${secs(convergedAt - windows.kafka.to)} after Kafka returned`
      }; unpublished outbox rows ${JSON.stringify(outbox)}`,
      `unexpected process exits: ${s.unexpectedExits.length ? s.unexpectedExits.join('; ') : 'none'}`,
      '',
    ].join('\n'),
  );

  // The run did something worth checking: the faults met a steady stream of saves and submits,
  // which went on while the broker was down (they need only Postgres; events wait in the outbox)
  // and after the last fault.
  expect(saves.figures.acked).toBeGreaterThan(STUDENTS * QUESTIONS * 4);
  expect(submitsAcked).toBeGreaterThan(STUDENTS);
  expect(during('kafka').sv.acked).toBeGreaterThan(0);
  expect(during('kafka').sb.acked).toBeGreaterThan(0);
  expect(afterFaults.acked).toBeGreaterThan(0);
  // An outage is answered as one (503 with Retry-After, or the gateway's 502/503), never as a bug.
  expect(history.figures.tries.get('500') ?? 0).toBe(0);
  expect(saves.anomalies).toEqual([]);
  expect(submits.anomalies).toEqual([]);
  expect(disagreements).toEqual([]);
  expect(s.unexpectedExits).toEqual([]);
  // Readiness is "can serve requests". A restarted service is ready as soon as it serves (it does
  // not wait for its consumer group, which took 27-30 s when readiness included Kafka).
  expect(restart!.ready - restart!.serving).toBeLessThan(3_000);
  // While Kafka is down every service stays ready (no replica would leave its Service), and the
  // outage shows where it belongs: events wait in the outbox, the event bus reports not ready.
  expect(kafkaNotReady).toEqual([]);
  expect(outboxDuringKafka.length).toBeGreaterThan(5);
  expect(Math.max(...outboxDuringKafka.map((o) => o.unpublished))).toBeGreaterThan(0);
  expect(outboxDuringKafka.some((o) => o.busReady === 0)).toBe(true);
  // While Postgres is down the services cannot serve: not ready (and their calls answer 503, above).
  expect(postgresNotReady.length).toBeGreaterThan(0);
});

it("when a timed attempt's time runs out while the assessment service is down, then what the student saved is submitted once it is back, and no later answer is taken", async () => {
  const s = stack!;
  const seeded = await seed(s.baseUrl, { students: 2, assessments: 1, questions: 3 });
  const { id, questions } = seeded.assessments[0]!;
  const [student, idle] = seeded.students as [Seed['students'][number], Seed['students'][number]];
  // The shortest time limit there is (60 s), set after assigning: no attempt has started yet.
  const limited = await seeded.teacher.put(`/api/assessments/${id}`, { timeLimitSeconds: 60 });
  expect(limited.status, JSON.stringify(limited.body)).toBe(200);

  // Reading the questions starts each attempt (the database's clock).
  const started = Date.now();
  for (const who of [student, idle]) expect((await who.get(`/api/assessments/${id}/questions`)).status).toBe(200);
  const [q1, q2] = questions as [(typeof questions)[number], (typeof questions)[number]];
  const wrong = q2.options.find((o) => o !== q2.correctAnswer)!;
  for (const [q, answer] of [
    [q1, q1.correctAnswer],
    [q2, wrong],
  ] as const) {
    const saved = await student.post('/api/responses', { assessmentId: id, questionId: q.id, answer, clientSeq: 1 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }

  // Down before the time is up, back only after it.
  await s.kill9('assessment');
  await sleep(Math.max(0, started + 63_000 - Date.now()));
  await s.start('assessment');
  await s.waitReady(['assessment'], 90_000);

  // The sweep submits what was acknowledged: one right of three, exactly once.
  const end = Date.now() + 30_000;
  let mine: { assessmentId: string; correctAnswers: number; totalQuestions: number }[] = [];
  while (Date.now() < end) {
    const results = await student.get('/api/student/results');
    mine = results.status === 200 ? results.body.filter((r: { assessmentId: string }) => r.assessmentId === id) : [];
    if (mine.length > 0) break;
    await sleep(250);
  }
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ correctAnswers: 1, totalQuestions: 3 });
  // After the time is up nothing more is taken, from either student; the idle one saved nothing, so nothing was submitted for them.
  const late = await student.post('/api/responses', { assessmentId: id, questionId: questions[2]!.id, answer: 'x' });
  expect(late.status).toBe(409);
  const idleLate = await idle.post('/api/responses', { assessmentId: id, questionId: q1.id, answer: q1.correctAnswer });
  expect(idleLate.status).toBe(409);
  expect(idleLate.body.code).toBe('time_up');
  const idleResults = await idle.get('/api/student/results');
  expect(idleResults.body.filter((r: { assessmentId: string }) => r.assessmentId === id)).toEqual([]);
  expect(s.unexpectedExits).toEqual([]);
});
