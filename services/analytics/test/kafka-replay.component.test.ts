// Against real Kafka and Postgres: a class's story published on the producers' topics reaches the
// API of an analytics process; a second process on an empty schema with a new consumer group reads
// the topics from the start and answers every call the same.
import { randomUUID } from 'node:crypto';
import { KafkaBus } from '@checkpoint/events';
import { createLogger, provisionServiceDatabase, startService, type RunningService } from '@checkpoint/service-kit';
import {
  startKafka,
  startPostgres,
  TEST_SERVICE_TOKEN_SECRET,
  type KafkaHandle,
  type PostgresHandle,
} from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsService } from '../src/index.ts';
import { call, classStory, eventually, type Story } from './helpers.ts';

let kafka: KafkaHandle;
const databases: PostgresHandle[] = [];
const running: RunningService[] = [];
let publisher: KafkaBus;

async function startAnalytics(group: string): Promise<RunningService> {
  const postgres = await startPostgres();
  databases.push(postgres);
  const service = await startService(analyticsService, {
    env: {
      DATABASE_URL: await provisionServiceDatabase(postgres.url, 'analytics'),
      KAFKA_BROKERS: kafka.brokers,
      ANALYTICS_CONSUMER_GROUP: group,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
    },
    logger: createLogger('analytics', 'silent'),
  });
  running.push(service);
  return service;
}

const PATHS = (s: Story) => [
  `/api/classes/${s.classId}/results`,
  `/api/classes/${s.classId}/grid`,
  `/api/assessments/${s.assessmentId}/results`,
  '/api/dashboard/students',
  '/api/reports?timeframe=all&type=progress',
];

interface ResultRow {
  performanceLevel: string;
  student: { firstName: string };
}

/**
 * The story's events are on four topics, read in no set order across them: it is complete once the
 * raised level (assessment topic) and every student's name (identity topic) are in.
 */
const storyComplete = (r: { status: number; body: ResultRow[] }) =>
  r.status === 200 &&
  r.body.length === 3 &&
  r.body.some((x) => x.performanceLevel === 'at') &&
  r.body.every((x) => x.student.firstName !== '');

/** The answers once two reads a moment apart agree (the last events of the other topics are in). */
async function settledAnswers(service: RunningService, s: Story) {
  let last = await answers(service, s);
  for (const until = Date.now() + 30_000; Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await answers(service, s);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  throw new Error('the answers did not settle within 30 s');
}

async function answers(service: RunningService, s: Story) {
  const out: unknown[] = [];
  for (const p of PATHS(s)) {
    const res = await call(service, s.teacher, 'GET', p);
    expect(res.status, p).toBe(200);
    const { generatedAt: _drop, ...body } = res.body as { generatedAt?: string };
    out.push(Array.isArray(res.body) ? res.body : body);
  }
  return out;
}

beforeAll(async () => {
  kafka = await startKafka();
  publisher = new KafkaBus({ brokers: kafka.brokers.split(','), clientId: `replay-test-${randomUUID()}` });
  await publisher.connect();
}, 180_000);

afterAll(async () => {
  for (const s of running.reverse()) await s.stop().catch(() => {});
  await publisher?.stop().catch(() => {});
  for (const d of databases) await d.stop().catch(() => {});
  await kafka?.stop();
}, 60_000);

describe('analytics on Kafka', () => {
  it('when a class’s events are on the topics, then the API shows them; a new group on an empty schema rebuilds the same answers', async () => {
    const first = await startAnalytics(`analytics-test-${randomUUID()}`);
    const story = classStory();
    await publisher.publish(story.events);
    // Once the last event (the raised level) is in, the story is complete.
    await eventually(
      () => call(first, story.teacher, 'GET', `/api/classes/${story.classId}/results`),
      storyComplete,
      60_000,
    );
    const expected = await settledAnswers(first, story);
    expect((expected[0] as unknown[]).length).toBe(3);

    // Redelivered on the topics (same event ids): nothing changes.
    await publisher.publish(story.events);
    const second = await startAnalytics(`analytics-replay-${randomUUID()}`);
    await eventually(
      () => call(second, story.teacher, 'GET', `/api/classes/${story.classId}/results`),
      storyComplete,
      60_000,
    );
    expect(await settledAnswers(second, story)).toEqual(expected);
    expect(await answers(first, story)).toEqual(expected);
  }, 180_000);
});
