// Retakes and reopening against real Postgres (docs/architecture.md, "Retakes and reopening"):
// the teacher grants a retake (the result stays as an earlier attempt, the student answers
// afresh), within the attempts the assessment allows; which attempt counts (latest or best) is
// one rule, carried by the events; a reopened attempt is withdrawn and continues with its answers.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassUpdatedSchema, PracticeCompletedSchema } from '@checkpoint/events';
import {
  actor,
  assignedAssessment,
  call,
  deliver,
  outboxFor,
  questionOf,
  startAssessmentService,
  submitAnswers,
  type Actor,
  type FixtureQuestion,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);

beforeAll(async () => {
  h = await startAssessmentService({ RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '1000' });
});
afterAll(async () => {
  await h?.stop();
});

/** An assigned assessment of two questions (MC key 3/4, TF key true) with the given settings. */
const assigned = (student: Actor, settings: Record<string, unknown> = {}) =>
  assignedAssessment(h, teacher, [student], { settings });

/** The student opens the questions, answers (MC right or wrong; TF right) and submits: the result. */
async function takeIt(student: Actor, a: { id: string; questions: FixtureQuestion[] }, right: 0 | 1 | 2) {
  expect((await call(h, student, 'GET', `/api/assessments/${a.id}/questions`)).status).toBe(200);
  const answers = {
    [questionOf(a.questions, 'multiple_choice')]: right >= 1 ? '3/4' : '1/2',
    [questionOf(a.questions, 'true_false')]: right >= 2 ? 'true' : 'false',
  };
  return (await submitAnswers(h, student, a.id, answers)) as {
    id: string;
    attempt: number;
    counted: boolean;
    percentage: string;
  };
}

const resultsOf = async (student: Actor, assessmentId: string) =>
  (
    (await call(h, student, 'GET', '/api/student/results')).body as {
      id: string;
      assessmentId: string;
      attempt: number;
      counted: boolean;
      maxAttempts: number;
    }[]
  )
    .filter((r) => r.assessmentId === assessmentId)
    .sort((x, y) => x.attempt - y.attempt);

describe('retakes', () => {
  it('when the teacher grants a retake, then the old result stays as attempt 1, the student answers afresh and attempt 2 counts (latest)', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2 });
    const first = await takeIt(student, a, 2);
    expect(first).toMatchObject({ attempt: 1, counted: true, maxAttempts: 2, countedAttempt: 'latest' });
    // Not available while submitted.
    let available = (await call(h, student, 'GET', '/api/student/available-assessments')).body as { id: string }[];
    expect(available.map((x) => x.id)).not.toContain(a.id);

    const retake = await call(h, teacher, 'POST', `/api/results/${first.id}/retake`);
    expect(retake.status, JSON.stringify(retake.body)).toBe(200);
    expect(retake.body).toEqual({ resultId: first.id, assessmentId: a.id, studentId: student.userId, attempt: 2 });

    // Available again, with no answer saved; the old result is still readable, with its review.
    available = (await call(h, student, 'GET', '/api/student/available-assessments')).body as { id: string }[];
    expect(available.map((x) => x.id)).toContain(a.id);
    const view = await call(h, student, 'GET', `/api/assessments/${a.id}`);
    expect(view.body).toMatchObject({ submitted: false, resultId: null });
    expect((await call(h, student, 'GET', `/api/assessments/${a.id}/responses`)).body).toEqual([]);
    const old = await call(h, student, 'GET', `/api/results/${first.id}`);
    expect(old.status).toBe(200);
    expect((old.body.questions as { answer: string }[]).map((q) => q.answer).sort()).toEqual(['3/4', 'true']);

    // A retake while attempt 2 is open: 409.
    const again = await call(h, teacher, 'POST', `/api/results/${first.id}/retake`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('attempt_open');

    const second = await takeIt(student, a, 0);
    expect(second).toMatchObject({ attempt: 2, counted: true });
    expect((await resultsOf(student, a.id)).map((r) => [r.attempt, r.counted])).toEqual([
      [1, false],
      [2, true],
    ]);
    const events = (await outboxFor(h, a.id)).filter((e) => ['ResultSubmitted', 'RetakeGranted'].includes(e.type));
    expect(events.map((e) => [e.type, e.message.attempt, e.message.counted])).toEqual([
      ['ResultSubmitted', 1, true],
      ['RetakeGranted', 2, undefined],
      ['ResultSubmitted', 2, true],
    ]);

    // All attempts used: 409 naming it.
    const beyond = await call(h, teacher, 'POST', `/api/results/${second.id}/retake`);
    expect(beyond.status).toBe(409);
    expect(beyond.body.code).toBe('no_attempts_left');
    // An earlier attempt cannot be retaken or reopened.
    const earlier = await call(h, teacher, 'POST', `/api/results/${first.id}/reopen`);
    expect(earlier.status).toBe(409);
    expect(earlier.body.code).toBe('not_current_attempt');
  });

  it('when the assessment allows one attempt (the default), then a retake is refused with 409 no_attempts_left and nothing changes', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student);
    const first = await takeIt(student, a, 1);
    expect(first).toMatchObject({ attempt: 1, maxAttempts: 1 });
    const refused = await call(h, teacher, 'POST', `/api/results/${first.id}/retake`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('no_attempts_left');
    expect(refused.body.message ?? refused.body.error).toMatch(/allows no retake/);
    expect((await call(h, student, 'GET', `/api/assessments/${a.id}`)).body.resultId).toBe(first.id);
  });

  it('when counted is best, then the better attempt counts, a switch to latest moves the count with CountedResultChanged', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 3, countedAttempt: 'best' });
    const first = await takeIt(student, a, 2);
    expect((await call(h, teacher, 'POST', `/api/results/${first.id}/retake`)).status).toBe(200);
    const second = await takeIt(student, a, 1);
    expect(second).toMatchObject({ attempt: 2, counted: false });
    expect((await resultsOf(student, a.id)).map((r) => [r.attempt, r.counted])).toEqual([
      [1, true],
      [2, false],
    ]);
    const submitted = (await outboxFor(h, a.id)).filter((e) => e.type === 'ResultSubmitted');
    expect(submitted.map((e) => e.message.counted)).toEqual([true, false]);

    const latest = await call(h, teacher, 'PUT', `/api/assessments/${a.id}`, { countedAttempt: 'latest' });
    expect(latest.body).toMatchObject({ countedAttempt: 'latest', maxAttempts: 3 });
    expect((await resultsOf(student, a.id)).map((r) => r.counted)).toEqual([false, true]);
    const changed = (await outboxFor(h, a.id)).filter((e) => e.type === 'CountedResultChanged');
    expect(
      changed.map((e) => {
        const r = e.message.result as {
          resultId: string;
          studentId: string;
          attempt: number;
          counted: boolean;
          answers: unknown[];
        };
        return [r.resultId, r.studentId, r.attempt, r.counted, r.answers.length];
      }),
    ).toEqual([[second.id, student.userId, 2, true, 2]]);

    // A best attempt later than an equal one wins the tie.
    await call(h, teacher, 'PUT', `/api/assessments/${a.id}`, { countedAttempt: 'best' });
    expect((await call(h, teacher, 'POST', `/api/results/${second.id}/retake`)).status).toBe(200);
    const third = await takeIt(student, a, 2);
    expect(third).toMatchObject({ attempt: 3, counted: true });
    expect((await resultsOf(student, a.id)).map((r) => r.counted)).toEqual([false, false, true]);
  });

  it('when the settings are out of range, then 400 names maxAttempts or countedAttempt', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student);
    for (const body of [{ maxAttempts: 0 }, { maxAttempts: 11 }, { maxAttempts: 1.5 }, { countedAttempt: 'first' }]) {
      const res = await call(h, teacher, 'PUT', `/api/assessments/${a.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(Object.keys(body)[0]!);
    }
  });

  it('when another teacher, or the student, asks for a retake or reopening, then 404/403 and nothing changes', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2 });
    const first = await takeIt(student, a, 1);
    const other = actor('teacher', tenant);
    for (const path of ['retake', 'reopen']) {
      expect((await call(h, other, 'POST', `/api/results/${first.id}/${path}`)).status).toBe(404);
      expect((await call(h, teacher, 'POST', `/api/results/${randomUUID()}/${path}`)).status).toBe(404);
      expect((await call(h, teacher, 'POST', `/api/results/not-a-uuid/${path}`)).status).toBe(404);
      expect((await call(h, student, 'POST', `/api/results/${first.id}/${path}`)).status).toBe(403);
    }
    expect((await resultsOf(student, a.id)).map((r) => r.id)).toEqual([first.id]);
  });

  it('when a co-teacher of the class grants a retake, then it is granted as by the owner', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2 });
    const first = await takeIt(student, a, 1);
    const coTeacher = actor('teacher', tenant);
    expect((await call(h, coTeacher, 'POST', `/api/results/${first.id}/retake`)).status).toBe(404);
    await deliver(
      h,
      ClassUpdatedSchema,
      {
        classId: a.classId,
        tenantId: tenant,
        teacherId: teacher.userId,
        name: 'Algebra I',
        subject: 'Math',
        period: '1',
        joinCode: 'ABC123',
        coTeacherIds: [coTeacher.userId],
      },
      { key: a.classId, tenantId: tenant, source: 'class' },
    );
    const granted = await call(h, coTeacher, 'POST', `/api/results/${first.id}/retake`);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.attempt).toBe(2);
  });

  it('when a timed attempt is retaken, then the clock starts again at the next read of the questions', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2, timeLimitSeconds: 600 });
    const first = await takeIt(student, a, 1);
    await h.sql.query(
      `update attempt_starts set started_at = now() - interval '1 hour' where assessment_id = $1 and student_id = $2`,
      [a.id, student.userId],
    );
    expect((await call(h, teacher, 'POST', `/api/results/${first.id}/retake`)).status).toBe(200);
    const { rows } = await h.sql.query('select 1 from attempt_starts where assessment_id = $1 and student_id = $2', [
      a.id,
      student.userId,
    ]);
    expect(rows).toEqual([]);
    expect((await call(h, student, 'GET', `/api/assessments/${a.id}`)).body.secondsLeft).toBeNull();
    const second = await takeIt(student, a, 2);
    expect(second.attempt).toBe(2);
  });
});

describe('practice follows the counted attempt', () => {
  const practiced = (student: Actor, assessmentId: string, resultId: string) =>
    deliver(
      h,
      PracticeCompletedSchema,
      {
        assessmentId,
        tenantId: tenant,
        studentId: student.userId,
        type: 'support',
        scorePercent: 90,
        resultId,
        attempt: 1,
      },
      { key: assessmentId, tenantId: tenant, source: 'generation' },
    );
  const levelOf = async (student: Actor, resultId: string) =>
    (await call(h, student, 'GET', `/api/results/${resultId}`)).body as {
      performanceLevel: string;
      raisedBy: string | null;
    };

  it('when practice of an attempt that no longer counts completes at mastery, then no level is raised; practice of the counted one raises it', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2 });
    const first = await takeIt(student, a, 0);
    expect((await call(h, teacher, 'POST', `/api/results/${first.id}/retake`)).status).toBe(200);
    const second = await takeIt(student, a, 0);
    expect(second).toMatchObject({ attempt: 2, counted: true });

    // Result practice of attempt 1 (written while it counted) completed after attempt 2 counts.
    await practiced(student, a.id, first.id);
    expect(await levelOf(student, first.id)).toMatchObject({ performanceLevel: 'below', raisedBy: null });
    expect(await levelOf(student, second.id)).toMatchObject({ performanceLevel: 'below', raisedBy: null });
    expect((await outboxFor(h, a.id)).filter((e) => e.type === 'ResultLevelRaised')).toEqual([]);

    // The assessment's shared practice (no result named) raises the counted attempt, not attempt 1.
    await practiced(student, a.id, '');
    expect(await levelOf(student, first.id)).toMatchObject({ performanceLevel: 'below', raisedBy: null });
    expect(await levelOf(student, second.id)).toMatchObject({ performanceLevel: 'at', raisedBy: 'practice' });
    const raised = (await outboxFor(h, a.id)).filter((e) => e.type === 'ResultLevelRaised');
    expect(raised.map((e) => e.message.resultId)).toEqual([second.id]);
  });

  it('when the counted attempt is best, then practice of the better attempt raises it and practice of the other raises nothing', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2, countedAttempt: 'best' });
    const first = await takeIt(student, a, 1);
    expect((await call(h, teacher, 'POST', `/api/results/${first.id}/retake`)).status).toBe(200);
    const second = await takeIt(student, a, 0);
    expect(second).toMatchObject({ attempt: 2, counted: false });
    await practiced(student, a.id, second.id);
    expect(await levelOf(student, second.id)).toMatchObject({ performanceLevel: 'below', raisedBy: null });
    expect(await levelOf(student, first.id)).toMatchObject({ performanceLevel: 'below', raisedBy: null });
    await practiced(student, a.id, first.id);
    expect(await levelOf(student, first.id)).toMatchObject({ performanceLevel: 'at', raisedBy: 'practice' });
  });
});

describe('reopening', () => {
  it('when the teacher reopens a submitted attempt, then the result is withdrawn, the saved answers stay, and the student submits again as the same attempt', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student);
    const first = await takeIt(student, a, 1);
    const reopened = await call(h, teacher, 'POST', `/api/results/${first.id}/reopen`);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body).toMatchObject({ resultId: first.id, attempt: 1 });
    expect((await call(h, student, 'GET', `/api/results/${first.id}`)).status).toBe(404);
    expect((await call(h, student, 'GET', `/api/assessments/${a.id}`)).body).toMatchObject({ submitted: false });
    const saved = (await call(h, student, 'GET', `/api/assessments/${a.id}/responses`)).body as { answer: string }[];
    expect(saved.map((r) => r.answer).sort()).toEqual(['3/4', 'false']);
    // A reopened attempt is open: neither reopened nor retaken again until submitted.
    expect((await call(h, teacher, 'POST', `/api/results/${first.id}/reopen`)).status).toBe(404);

    // The student changes one answer and submits again: the same attempt, all right now.
    const tf = a.questions.find((q) => q.questionType === 'true_false')!;
    expect(
      (await call(h, student, 'POST', '/api/responses', { assessmentId: a.id, questionId: tf.id, answer: 'true' }))
        .status,
    ).toBe(200);
    const again = await call(h, student, 'POST', '/api/results', { assessmentId: a.id });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ attempt: 1, counted: true, percentage: '100.00' });
    const types = (await outboxFor(h, a.id)).map((e) => e.type).filter((t) => t.startsWith('Result'));
    expect(types).toEqual(['ResultSubmitted', 'ResultWithdrawn', 'ResultSubmitted']);
  });

  it('when the reopened attempt was the counted one, then the earlier attempt counts meanwhile (CountedResultChanged)', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2 });
    const first = await takeIt(student, a, 1);
    await call(h, teacher, 'POST', `/api/results/${first.id}/retake`);
    const second = await takeIt(student, a, 2);
    expect((await call(h, teacher, 'POST', `/api/results/${second.id}/reopen`)).status).toBe(200);
    expect((await resultsOf(student, a.id)).map((r) => [r.id, r.counted])).toEqual([[first.id, true]]);
    const changed = (await outboxFor(h, a.id)).filter((e) => e.type === 'CountedResultChanged');
    expect(changed.map((e) => (e.message.result as { resultId: string }).resultId)).toEqual([first.id]);
  });
});

describe('the trigger follows the current attempt', () => {
  it('when a result of the current attempt exists, then a direct write of an answer is skipped; after a retake it is written', async () => {
    const student = actor('student', tenant);
    const a = await assigned(student, { maxAttempts: 2 });
    const first = await takeIt(student, a, 1);
    const q = a.questions[0]!;
    const write = () =>
      h.sql.query(
        `insert into responses (id, assessment_id, question_id, student_id, tenant_id, answer)
         values ($1, $2, $3, $4, $5, 'x') on conflict (question_id, student_id) do update set answer = 'x'`,
        [randomUUID(), a.id, q.id, student.userId, tenant],
      );
    expect((await write()).rowCount).toBe(0);
    await call(h, teacher, 'POST', `/api/results/${first.id}/retake`);
    expect((await write()).rowCount).toBe(1);
  });
});
