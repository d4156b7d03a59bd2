// Scale-out (docs/scale-out.md): every service runs as two replicas behind a round-robin balancer
// (the Kubernetes Service), in stack mode with real Kafka and Postgres. A teacher makes a class and
// assessments generated offline from a lesson text, students join, save answers and submit
// concurrently through the gateway, and mid-run one replica each of assessment, generation (while
// it has jobs to run) and analytics is killed with SIGKILL and not started again. Then, checked
// against the databases and the teacher's views: every acknowledged save and submit is stored once,
// every result reached analytics (and the other read models) exactly once, every generation job
// finished once with one QuestionsGenerated event and one set of questions, every outbox is
// drained, no event was dead-lettered; the consumer groups shared the partitions between the
// replicas, both replicas of every service served calls, and a rate limit holds across replicas.
// Run by `npm test -- faults` (vitest -c e2e/faults/vitest.config.ts); design notes in docs/scale-out.md.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dlqTopic, eventRegistry } from '@checkpoint/events';
import { ServiceTokens } from '@checkpoint/service-kit';
import { drive, seed, type Seed } from '../faults/driver.ts';
import { checkSaves, checkSubmits, expectedClassCounts, readModelDisagreements } from '../faults/history.ts';
import { readModels, readResponses, readResults, unpublishedEvents, withClient } from '../faults/observe.ts';
import { replicaNames, root, SERVICES, startScaleStack, type ProcessName, type ScaleStack } from './stack.ts';

const REPLICAS = 2;
const STUDENTS = 16;
const ASSESSMENTS = 4;
const QUESTIONS = 5;
/** Assessments the teacher makes mid-run, so that the generation replica is killed with jobs to run. */
const LATE_ASSESSMENTS = 8;
const JOIN_LIMIT = 5;
const GIVE_UP_AFTER_STOP_MS = 45_000;
/** Kafka gives a dead member's partitions away after its session timeout (30 s): then a little more. */
const CONVERGENCE_BOUND_MS = 150_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const LATE_LESSON = [
  'The water cycle describes how water moves between the oceans, the air and the land.',
  'Evaporation happens when the sun heats water in oceans and lakes and turns it into water vapour.',
  'Transpiration is the release of water vapour from the leaves of plants.',
  'Condensation happens when water vapour cools high in the air and forms the tiny droplets of clouds.',
  'Precipitation is water that falls from clouds as rain, snow, sleet or hail.',
  'Runoff is water that flows over the ground into streams, rivers and finally the ocean.',
  'Infiltration is water soaking into the soil, where it can become groundwater.',
  'Groundwater is stored in layers of rock called aquifers and feeds springs and wells.',
].join(' ');

let stack: ScaleStack | undefined;

beforeAll(async () => {
  const started = Date.now();
  stack = await startScaleStack({
    logDir: path.join(root, '.cache/scale'),
    replicas: REPLICAS,
    readyTimeoutMs: 180_000,
    env: {
      GENERATION_PROVIDER: 'offline',
      // One job at a time per replica and a short stale time: a job cut off by the kill is run
      // again by the other replica within the test's bound.
      GENERATION_CONCURRENCY: '1',
      GENERATION_POLL_MS: '200',
      GENERATION_STALE_AFTER_MS: '10000',
      RATE_LIMIT_SIGNUP_PER_MINUTE: '10000',
      // Each sign-up opens its mailed link (POST /api/auth/email/verify, limited per address).
      RATE_LIMIT_EMAIL_PER_MINUTE: '10000',
      RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
      RATE_LIMIT_JOIN_PER_MINUTE: String(JOIN_LIMIT),
      RATE_LIMIT_GENERATION_PER_MINUTE: '1000',
      RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '10000',
      RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: '10000',
      ACCESS_TOKEN_TTL_SECONDS: '3600',
    },
  });
  console.log(
    `[scale] Postgres, Kafka, ${SERVICES.length} services × ${REPLICAS} replicas, balancers and the gateway ready in ${secs(Date.now() - started)}`,
  );
});

afterAll(async () => {
  await stack?.stop();
});

/**
 * The seed (sign-ups, class, generated assessments, joins) through the gateway. It does not retry
 * a call answered 5xx (on this shared 2-core machine a sign-up can time out waiting for a pooled
 * connection): then it is made again from scratch, with new people, at most three times.
 */
async function seedWithRetry(baseUrl: string): Promise<Seed> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await seed(baseUrl, { students: STUDENTS, assessments: ASSESSMENTS, questions: QUESTIONS });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (attempt >= 3 || !/answered 5\d\d/.test(text)) throw error;
      console.log(`[scale] seeding again (attempt ${attempt} failed: ${text.slice(0, 200)})`);
    }
  }
}

/**
 * Each consumer group: members, and the partitions each member holds. Read once every group is
 * Stable (up to 30 s): a group in the middle of a rebalance (a member that joined late) shows its
 * members with no partitions yet.
 */
async function consumerGroups(brokers: string): Promise<Map<string, number[]>> {
  const admin = new Kafka({ clientId: 'scale-check', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const deadline = Date.now() + 30_000;
    let described = await admin.describeGroups(groups.map((g) => g.groupId));
    while (described.groups.some((g) => g.state !== 'Stable' && g.state !== 'Empty') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      described = await admin.describeGroups(groups.map((g) => g.groupId));
    }
    return new Map(
      described.groups.map((g) => [
        g.groupId,
        g.members.map((m) => {
          const decoded = AssignerProtocol.MemberAssignment.decode(m.memberAssignment);
          return Object.values(decoded?.assignment ?? {}).reduce((n, parts) => n + parts.length, 0);
        }),
      ]),
    );
  } finally {
    await admin.disconnect();
  }
}

/** Messages in every dead-letter topic. */
async function deadLetters(brokers: string): Promise<Record<string, number>> {
  const admin = new Kafka({ clientId: 'scale-check', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = new Set<string>();
    for (const type of eventRegistry) if (type.kind === 'message') topics.add(dlqTopic(type.file.proto.package));
    const out: Record<string, number> = {};
    for (const topic of topics) {
      const offsets = await admin.fetchTopicOffsets(topic);
      const n = offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
      if (n > 0) out[topic] = n;
    }
    return out;
  } finally {
    await admin.disconnect();
  }
}

/** Per assessment: the job, its QuestionsGenerated events, and the questions the assessment service stored. */
async function generationOutcome(client: pg.Client, assessmentIds: string[]) {
  const jobs = await client.query<{ assessment_id: string; status: string; attempts: number }>(
    'select assessment_id, status, attempts from generation.generation_jobs where assessment_id = any($1::uuid[])',
    [assessmentIds],
  );
  const events = await client.query<{ key: string; n: number }>(
    `select key, count(*)::int as n from generation.outbox
      where type = 'checkpoint.generation.v1.QuestionsGenerated' and key = any($1::text[]) group by key`,
    [assessmentIds],
  );
  const questions = await client.query<{ assessment_id: string; n: number }>(
    `select assessment_id, count(*)::int as n from assessment.questions
      where assessment_id = any($1::uuid[]) group by assessment_id`,
    [assessmentIds],
  );
  const eventsOf = new Map(events.rows.map((r) => [r.key, r.n]));
  const questionsOf = new Map(questions.rows.map((r) => [r.assessment_id, r.n]));
  return assessmentIds.map((id) => {
    const job = jobs.rows.find((j) => j.assessment_id === id);
    return {
      id,
      status: job?.status ?? 'none',
      attempts: job?.attempts ?? 0,
      events: eventsOf.get(id) ?? 0,
      questions: questionsOf.get(id) ?? 0,
    };
  });
}

/** Join attempts of one student sent to the class replicas in turn, straight (as the gateway would). */
async function joinAttemptsAcrossReplicas(s: ScaleStack, attempts: number): Promise<number[]> {
  const tokens = new ServiceTokens(s.serviceTokenSecret, { issuer: 'gateway' });
  const caller = { userId: randomUUID(), role: 'student' as const, tenantId: randomUUID(), sessionId: randomUUID() };
  const statuses: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const replica = replicaNames('class', s.replicas)[i % s.replicas]!;
    const res = await fetch(`http://127.0.0.1:${s.portOf(replica)}/api/classes/join`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(await tokens.headers('class', { caller, clientAddress: '127.0.0.1', requestId: randomUUID() })),
      },
      // Well-formed codes (6 of the code alphabet) that no class has (its codes have 7).
      body: JSON.stringify({ joinCode: `ZZZZQ${'ABCDEFGHJKMNPQRSTUVWXYZ'[i % 23]}` }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    statuses.push(res.status);
  }
  return statuses;
}

it('when one replica each of assessment, generation and analytics is killed mid-run, then nothing acknowledged is lost or doubled, every job runs once and every result reaches analytics once', async () => {
  const s = stack!;
  const seedStart = Date.now();
  const seeded = await seedWithRetry(s.baseUrl);
  console.log(`[scale] seeded in ${secs(Date.now() - seedStart)}`);

  // Consumers share partitions: every group has a member per replica, each holding some.
  const groupsBefore = await consumerGroups(s.kafka.brokers);

  const t0 = Date.now();
  const now = () => Date.now() - t0;
  const timeline: string[] = [];
  const mark = (what: string) => {
    timeline.push(`${secs(now()).padStart(8)}  ${what}`);
    console.log(`[scale] ${secs(now())}: ${what}`);
  };
  let stopAt: number | undefined;
  const driver = drive(seeded, {
    now,
    stopped: () => stopAt !== undefined,
    giveUpAt: () => (stopAt === undefined ? Infinity : stopAt + GIVE_UP_AFTER_STOP_MS),
    rounds: [3, 6],
    thinkMs: [200, 600],
    correctRate: 0.6,
  });
  const at = async (ms: number) => sleep(Math.max(0, ms - now()));
  const killed: ProcessName[] = [];
  const kill = async (name: ProcessName) => {
    mark(`kill -9 ${name}`);
    await s.kill9(name);
    killed.push(name);
  };
  // The teacher watches the class's results (analytics) and the assessments' generation status
  // (generation) meanwhile, several calls at once, as the web app's pages do; the district's LMS
  // reads the tool's public keys (integrations) as it does before each launch it checks.
  const watchTries = new Map<string, number>();
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      const ids = seeded.assessments.map((a) => a.id);
      const calls = [
        ...Array.from({ length: 3 }, () => seeded.teacher.get(`/api/classes/${seeded.classId}/results`)),
        ...ids.slice(0, 3).map((id) => seeded.teacher.get(`/api/assessments/${id}/generation`)),
        ...Array.from({ length: 2 }, () => seeded.teacher.get('/api/lti/jwks')),
      ];
      for (const outcome of await Promise.allSettled(calls)) {
        const key = outcome.status === 'fulfilled' ? String(outcome.value.status) : 'error';
        watchTries.set(key, (watchTries.get(key) ?? 0) + 1);
      }
      await sleep(500);
    }
  })();
  const connectionsBeforeKills: Record<string, number[]> = {};

  const late: string[] = [];
  let lateCreated: Promise<unknown> | undefined;
  try {
    await at(8_000);
    for (const svc of SERVICES) connectionsBeforeKills[svc] = s.balancers[svc].backends.map((b) => b.connections);
    await kill('assessment#0');

    // The teacher makes more assessments; the generation replica dies once the jobs are running.
    await at(14_000);
    mark(`teacher creates ${LATE_ASSESSMENTS} more assessments`);
    lateCreated = Promise.all(
      Array.from({ length: LATE_ASSESSMENTS }, async (_, k) => {
        for (let tries = 0; tries < 20; tries++) {
          const res = await seeded.teacher.post('/api/assessments', {
            title: `Water cycle ${k + 1}`,
            contentToAssess: LATE_LESSON,
            questionType: 'multiple_choice',
            numberOfQuestions: QUESTIONS,
            description: 'Scale test',
            classId: seeded.classId,
          });
          if (res.status === 201) {
            late.push(res.body.id);
            return;
          }
          // Only an outage may be retried (the assessment replica died under this call).
          if (res.status < 500) throw new Error(`assessment creation answered ${res.status}`);
          await sleep(500);
        }
        throw new Error('assessment creation kept failing');
      }),
    );
    const firstClaim = Date.now() + 20_000;
    while (Date.now() < firstClaim) {
      const claimed = await withClient(s.adminUrl, async (c) => {
        const { rows } = await c.query<{ n: number }>(
          `select count(*)::int as n from generation.generation_jobs where attempts > 0 and assessment_id = any($1::uuid[])`,
          [late],
        );
        return rows[0]!.n;
      });
      if (claimed > 0) break;
      await sleep(50);
    }
    await kill('generation#1');
    await lateCreated;

    await at(now() + 8_000);
    await kill('analytics#0');
    await sleep(20_000);
  } finally {
    stopAt = now();
    mark('driver stops starting new operations');
  }
  await lateCreated?.catch(() => {});
  const history = await driver;
  watching = false;
  await watcher;
  const settled = now();
  mark('every operation answered or given up');

  const { responses, results } = await withClient(s.adminUrl, async (c) => ({
    responses: await readResponses(c),
    results: await readResults(c),
  }));
  const saves = checkSaves(history.saves, responses);
  const submits = checkSubmits(history.submits, results, responses);

  // Read models and generation: polled until they agree with the assessment service, bounded.
  const allAssessments = [...seeded.assessments.map((a) => a.id), ...late];
  let disagreements: string[];
  let jobs: Awaited<ReturnType<typeof generationOutcome>> = [];
  let drained: Record<string, number> = {};
  let convergedAt: number | undefined;
  const until = Date.now() + CONVERGENCE_BOUND_MS;
  for (;;) {
    try {
      disagreements = await withClient(s.adminUrl, async (c) => {
        const out = readModelDisagreements(results, await readModels(c, seeded.classId, seeded.tenantId));
        jobs = await generationOutcome(c, allAssessments);
        for (const j of jobs)
          if (j.status !== 'succeeded' || j.events !== 1 || j.questions !== QUESTIONS)
            out.push(`generation of ${j.id}: ${JSON.stringify(j)}`);
        drained = await unpublishedEvents(c);
        for (const [schema, n] of Object.entries(drained)) if (n > 0) out.push(`${schema}: ${n} unpublished events`);
        return out;
      });
      // What the teacher sees through the gateway: the class's counts and its results, once each.
      const cls = await seeded.teacher.get(`/api/classes/${seeded.classId}`);
      const want = expectedClassCounts(results);
      const got = { below: cls.body?.belowStandard, at: cls.body?.atStandard, above: cls.body?.aboveStandard };
      if (cls.status !== 200 || got.below !== want.below || got.at !== want.at || got.above !== want.above)
        disagreements.push(
          `GET /api/classes/{id}: ${cls.status} ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
        );
      const view = await seeded.teacher.get(`/api/classes/${seeded.classId}/results`);
      const ids: string[] = view.status === 200 ? view.body.map((r: { id: string }) => r.id) : [];
      const expected = new Set(results.filter((r) => r.classId === seeded.classId).map((r) => r.id));
      if (
        view.status !== 200 ||
        ids.length !== expected.size ||
        new Set(ids).size !== ids.length ||
        !ids.every((id) => expected.has(id))
      )
        disagreements.push(
          `GET /api/classes/{id}/results: ${view.status}, ${ids.length} results, expected ${expected.size}`,
        );
    } catch (error) {
      disagreements = [`reading failed: ${error instanceof Error ? error.message : String(error)}`];
    }
    if (disagreements.length === 0) {
      convergedAt = now();
      break;
    }
    if (Date.now() > until) break;
    await sleep(1_000);
  }
  if (convergedAt !== undefined) mark('read models, generation and outboxes agree with the results');
  const dlq = await deadLetters(s.kafka.brokers);
  const groupsAfter = await consumerGroups(s.kafka.brokers);
  const joins = await joinAttemptsAcrossReplicas(s, 2 * JOIN_LIMIT);
  const submitsAcked = history.submits.filter((o) => o.outcome === 'acked').length;
  const afterKills = history.saves.flatMap((o) => o.attempts).filter((t) => t.at > (stopAt ?? 0) - 20_000);
  const rerun = jobs.filter((j) => j.attempts > 1);

  console.log(
    [
      '',
      'Scale-out test timeline:',
      ...timeline,
      '',
      `replicas ${REPLICAS} per service; students ${STUDENTS}; assessments ${ASSESSMENTS} × ${QUESTIONS} questions, ${late.length} more made mid-run`,
      `connections per replica before the kills: ${JSON.stringify(connectionsBeforeKills)}`,
      `consumer groups before (partitions per member): ${JSON.stringify(Object.fromEntries(groupsBefore))}`,
      `consumer groups after: ${JSON.stringify(Object.fromEntries(groupsAfter))}`,
      `saves: ${history.saves.length} sent, ${saves.figures.acked} acknowledged, ${saves.figures.unknown} never answered ` +
        `(${saves.figures.unknownButStored} stored all the same); ${responses.length} rows stored`,
      `submits: ${history.submits.length} sent, ${submitsAcked} acknowledged; ${results.length} results stored`,
      `tries by answer: ${JSON.stringify(Object.fromEntries(history.figures.tries))}; retries ${history.figures.retries}`,
      `teacher's watching calls by answer: ${JSON.stringify(Object.fromEntries(watchTries))}`,
      `generation jobs: ${jobs.length}, run again after the kill ${rerun.length} (${JSON.stringify(rerun.map((j) => j.attempts))})`,
      `convergence: ${convergedAt === undefined ? `NOT within ${secs(CONVERGENCE_BOUND_MS)}` : `${secs(convergedAt - settled)} after the last operation`}; ` +
        `unpublished ${JSON.stringify(drained)}; dead letters ${JSON.stringify(dlq)}`,
      `join attempts across the class replicas (limit ${JOIN_LIMIT}/min): ${joins.join(' ')}`,
      `unexpected process exits: ${s.unexpectedExits.length ? s.unexpectedExits.join('; ') : 'none'}`,
      '',
    ].join('\n'),
  );

  // The run did something worth checking, on every replica.
  expect(saves.figures.acked).toBeGreaterThan(STUDENTS * QUESTIONS * 2);
  expect(submitsAcked).toBeGreaterThan(STUDENTS);
  expect(afterKills.filter((t) => t.status !== undefined && t.status < 300).length).toBeGreaterThan(0);
  expect(late).toHaveLength(LATE_ASSESSMENTS);
  for (const svc of SERVICES)
    expect(
      connectionsBeforeKills[svc]!.every((n) => n > 0),
      `both ${svc} replicas served`,
    ).toBe(true);
  // Every service's consumer groups had a member per replica, each with partitions of its own.
  const serviceGroups = [...groupsBefore].filter(([, members]) => members.length > 0);
  expect(serviceGroups.length).toBeGreaterThanOrEqual(SERVICES.length);
  for (const [group, members] of serviceGroups) {
    expect(members, `group ${group}`).toHaveLength(REPLICAS);
    expect(
      members.every((n) => n > 0),
      `group ${group} shares its partitions`,
    ).toBe(true);
  }
  // Nothing lost or doubled.
  expect(history.figures.tries.get('500') ?? 0).toBe(0);
  expect(watchTries.get('500') ?? 0).toBe(0);
  expect(watchTries.get('200') ?? 0).toBeGreaterThan(0);
  expect(saves.anomalies).toEqual([]);
  expect(submits.anomalies).toEqual([]);
  expect(disagreements).toEqual([]);
  expect(dlq).toEqual({});
  // A rate limit is one budget for all replicas: exactly JOIN_LIMIT attempts pass, then 429.
  expect(joins.slice(0, JOIN_LIMIT).every((st) => st === 404)).toBe(true);
  expect(joins.slice(JOIN_LIMIT).every((st) => st === 429)).toBe(true);
  expect(s.unexpectedExits).toEqual([]);
  expect(killed).toEqual(['assessment#0', 'generation#1', 'analytics#0']);
});
