// What a student's save and submit cost the database, counted per statement on the service's own
// connections: every student of a class does these at once (bench/README.md), so a change of the
// code around them must not add a round trip. The outbox relay's own work is left out.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionsGeneratedSchema } from '@checkpoint/events';
import {
  actor,
  call,
  deliver,
  enrol,
  givenClass,
  startAssessmentService,
  VALID_CREATE,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);
const original = pg.Client.prototype.query;
let seen: { client: object; statement: string }[] | undefined;

beforeAll(async () => {
  h = await startAssessmentService();
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    const config = args[0] as string | { name?: string; text?: string };
    const statement = typeof config === 'string' ? config : (config.name ?? config.text ?? '');
    seen?.push({ client: this, statement: statement.replace(/\s+/g, ' ').trim() });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
});
afterAll(async () => {
  pg.Client.prototype.query = original;
  await h?.stop();
});

/** The request's own statements: named ones of this service, its outbox row, its other reads. */
const mine = (s: string) =>
  s.startsWith('assessment.') ||
  s.startsWith('insert into outbox') ||
  s.startsWith('SELECT "assessment"."questions"') ||
  s.startsWith('select id, assessment_id, question_id, student_id');

/**
 * The statements `act` sends, in order: each connection's transactions that hold one of the
 * request's statements (with their begin and commit) and its single statements that are the
 * request's; the relay's polls and publishing transactions are not.
 */
async function statementsOf(act: () => Promise<unknown>): Promise<string[]> {
  seen = [];
  await act();
  const all = seen;
  seen = undefined;
  const kept = new Set<number>();
  const open = new Map<object, number[]>();
  all.forEach(({ client, statement }, i) => {
    const tx = open.get(client);
    if (statement === 'begin') open.set(client, [i]);
    else if (tx && (statement === 'commit' || statement === 'rollback')) {
      tx.push(i);
      if (tx.some((j) => mine(all[j]!.statement))) tx.forEach((j) => kept.add(j));
      open.delete(client);
    } else if (tx) tx.push(i);
    else if (mine(statement)) kept.add(i);
  });
  return all.filter((_, i) => kept.has(i)).map(({ statement }) => statement.split(' (')[0]!);
}

async function openAssessment() {
  const student = actor('student', tenant);
  const classId = await givenClass(h, teacher);
  await enrol(h, classId, tenant, student);
  const a = (await call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, classId })).body;
  const question = (text: string) => ({
    questionText: text,
    questionType: 'short_answer',
    options: [],
    correctAnswer: 'x',
    points: 1,
  });
  await deliver(
    h,
    QuestionsGeneratedSchema,
    {
      jobId: randomUUID(),
      assessmentId: a.id,
      tenantId: tenant,
      provider: 'offline',
      questions: [question('1?'), question('2?')],
    },
    { key: a.id, tenantId: tenant, source: 'generation' },
  );
  expect((await call(h, teacher, 'POST', `/api/assessments/${a.id}/assign`)).status).toBe(200);
  const [q] = (await call(h, teacher, 'GET', `/api/assessments/${a.id}/questions`)).body;
  const save = async (answer: string) =>
    (await call(h, student, 'POST', '/api/responses', { assessmentId: a.id, questionId: q.id, answer })).status;
  const submit = async () => (await call(h, student, 'POST', '/api/results', { assessmentId: a.id })).status;
  return { save, submit };
}

describe('round trips of a student’s save and submit', () => {
  it('when an answer is edited, then the save is one statement', async () => {
    const { save } = await openAssessment();
    expect(await save('a')).toBe(200);
    expect(await statementsOf(async () => expect(await save('b')).toBe(200))).toEqual(['assessment.save-response']);
  });

  it('when a question is first answered, then the save and its progress event take five round trips', async () => {
    const { save } = await openAssessment();
    expect(await statementsOf(async () => expect(await save('a')).toBe(200))).toEqual([
      'assessment.save-response',
      'begin',
      'assessment.attempt-progress',
      'insert into outbox',
      'commit',
    ]);
  });

  it('when a student submits, then it is four statements in one transaction', async () => {
    const { save, submit } = await openAssessment();
    expect(await save('x')).toBe(200);
    expect(await statementsOf(async () => expect(await submit()).toBe(201))).toEqual([
      'begin',
      'assessment.student-access-locked',
      'assessment.answered-questions',
      'assessment.insert-result',
      'insert into outbox',
      'commit',
    ]);
  });

  it('when a save comes after the submission, then it is refused after four reads', async () => {
    const { save, submit } = await openAssessment();
    expect(await save('x')).toBe(200);
    expect(await submit()).toBe(201);
    expect(await statementsOf(async () => expect(await save('y')).toBe(409))).toEqual([
      'assessment.save-response',
      'assessment.student-access',
      'SELECT "assessment"."questions"."id" FROM "assessment"."questions" WHERE',
      'select id, assessment_id, question_id, student_id, answer, client_seq, updated_at from responses where question_id = $1::uuid and student_id = $2::uuid',
    ]);
  });
});
