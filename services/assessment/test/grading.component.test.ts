// Grading by hand against real Postgres (docs/architecture.md, "Grading by hand"): the teacher of
// the class regrades an answer with part points and feedback; the score, percentage and level
// follow by the one rule, the change is audited and goes out as ResultRegraded; refusals name
// their field; the student sees the new score and the feedback, other students nothing; with
// reviewShortAnswers a short answer off the key waits in the teacher's to-review list.
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

const SA = {
  questionText: 'What is the process by which water becomes vapour?',
  questionType: 'short_answer',
  options: [],
  correctAnswer: 'evaporation',
  points: 2,
};
const TF = {
  questionText: 'Half of 8 is 4.',
  questionType: 'true_false',
  options: [],
  correctAnswer: 'true',
  points: 3,
};

/** An assigned assessment (a short answer worth 2, a true/false worth 3) in a class of `students`. */
async function assigned(students: Actor[], settings: Record<string, unknown> = {}) {
  const { id, questions } = await assignedAssessment(h, teacher, students, { questions: [SA, TF], settings });
  return { id, sa: questionOf(questions, 'short_answer'), tf: questionOf(questions, 'true_false') };
}

const submitted = (student: Actor, id: string, answers: Record<string, string>) =>
  submitAnswers(h, student, id, answers);

const regrade = (who: Actor, resultId: string, questionId: string, body: unknown) =>
  call(h, who, 'PATCH', `/api/results/${resultId}/responses/${questionId}`, body);

describe('regrading an answer', () => {
  it('when the teacher marks a short answer right in other words, then the score, level, audit and event follow', async () => {
    const student = actor('student', tenant);
    const { id, sa, tf } = await assigned([student]);
    const result = await submitted(student, id, { [sa]: 'the sun heats the water', [tf]: 'true' });
    // 3 of 5: 60%, below.
    expect(result).toMatchObject({ earnedPoints: '3.00', percentage: '60.00', performanceLevel: 'below' });

    const marked = await regrade(teacher, result.id, sa, { earnedPoints: 2, feedback: 'Right: that is evaporation.' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body).toMatchObject({
      earnedPoints: '5.00',
      totalPoints: '5.00',
      percentage: '100.00',
      score: 100,
      performanceLevel: 'above',
      originalLevel: 'above',
      correctAnswers: 2,
      incorrectAnswers: 0,
      pendingReview: 0,
    });
    expect(marked.body.regradedAt).not.toBeNull();
    const q = (marked.body.questions as { questionId: string }[]).find((x) => x.questionId === sa);
    expect(q).toMatchObject({ earnedPoints: '2.00', correct: true, feedback: 'Right: that is evaporation.' });

    // Part points: 1 of 2 gives 4 of 5, 80%: at (the thresholds of scoring.ts, exactly).
    const part = await regrade(teacher, result.id, sa, { earnedPoints: 1 });
    expect(part.body).toMatchObject({ earnedPoints: '4.00', percentage: '80.00', performanceLevel: 'at' });
    const partQ = (part.body.questions as { questionId: string }[]).find((x) => x.questionId === sa);
    // Feedback left out keeps the feedback given before.
    expect(partQ).toMatchObject({ earnedPoints: '1.00', correct: false, feedback: 'Right: that is evaporation.' });

    const audit = await h.sql.query(
      'select question_id, graded_by, old_points, new_points, feedback from result_regrades where result_id = $1 order by created_at',
      [result.id],
    );
    expect(audit.rows).toEqual([
      {
        question_id: sa,
        graded_by: teacher.userId,
        old_points: 0,
        new_points: 2,
        feedback: 'Right: that is evaporation.',
      },
      {
        question_id: sa,
        graded_by: teacher.userId,
        old_points: 2,
        new_points: 1,
        feedback: 'Right: that is evaporation.',
      },
    ]);
    const history = await call(h, teacher, 'GET', `/api/results/${result.id}/regrades`);
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject([
      { questionId: sa, oldPoints: '0.00', newPoints: '2.00' },
      { questionId: sa, oldPoints: '2.00', newPoints: '1.00' },
    ]);

    const events = (await outboxFor(h, id)).filter((e) => e.type === 'ResultRegraded');
    expect(events).toHaveLength(2);
    expect(events[1]!.message).toMatchObject({
      resultId: result.id,
      studentId: student.userId,
      earnedPoints: 4,
      totalPoints: 5,
      percentage: 80,
      level: 'at',
      scoreLevel: 'at',
      questionId: sa,
      gradedBy: teacher.userId,
      pendingCount: 0,
    });
    expect(events[1]!.message.answers).toMatchObject([
      { questionId: sa, correct: false, pending: false, earnedPoints: 1 },
      { questionId: tf, correct: true, pending: false, earnedPoints: 3 },
    ]);
  });

  it('when the student reads their result, then they see the new score and both feedbacks; another student sees nothing', async () => {
    const student = actor('student', tenant);
    const other = actor('student', tenant);
    const { id, sa, tf } = await assigned([student, other]);
    const result = await submitted(student, id, { [sa]: 'vapour forming', [tf]: 'false' });
    await regrade(teacher, result.id, sa, { earnedPoints: 1.5, feedback: 'Nearly: the word is evaporation.' });
    const overall = await call(h, teacher, 'PUT', `/api/results/${result.id}/feedback`, {
      feedback: 'Good effort: revise the water cycle.',
    });
    expect(overall.status, JSON.stringify(overall.body)).toBe(200);
    expect(overall.body.feedback).toBe('Good effort: revise the water cycle.');

    const mine = await call(h, student, 'GET', `/api/results/${result.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ earnedPoints: '1.50', feedback: 'Good effort: revise the water cycle.' });
    expect((mine.body.questions as { questionId: string }[]).find((x) => x.questionId === sa)).toMatchObject({
      earnedPoints: '1.50',
      feedback: 'Nearly: the word is evaporation.',
    });
    const listed = (await call(h, student, 'GET', '/api/student/results')).body as Record<string, unknown>[];
    expect(listed.find((r) => r.id === result.id)).toMatchObject({
      earnedPoints: '1.50',
      feedback: 'Good effort: revise the water cycle.',
    });
    expect((await call(h, other, 'GET', `/api/results/${result.id}`)).status).toBe(404);

    // Null clears the overall feedback (audited too).
    const cleared = await call(h, teacher, 'PUT', `/api/results/${result.id}/feedback`, { feedback: null });
    expect(cleared.body.feedback).toBeNull();
    const audit = await h.sql.query(
      'select question_id, feedback from result_regrades where result_id = $1 and question_id is null order by created_at',
      [result.id],
    );
    expect(audit.rows).toEqual([
      { question_id: null, feedback: 'Good effort: revise the water cycle.' },
      { question_id: null, feedback: null },
    ]);
  });

  it('when practice raised the result, then a regrade keeps at as a floor and a higher score wins', async () => {
    const student = actor('student', tenant);
    const { id, sa, tf } = await assigned([student]);
    const result = await submitted(student, id, { [sa]: 'no idea', [tf]: 'false' });
    await deliver(
      h,
      PracticeCompletedSchema,
      { assessmentId: id, tenantId: tenant, studentId: student.userId, type: 'support', scorePercent: 90, attempt: 1 },
      { key: id, tenantId: tenant },
    );
    expect((await call(h, student, 'GET', `/api/results/${result.id}`)).body).toMatchObject({
      performanceLevel: 'at',
      raisedBy: 'practice',
    });
    // 1 of 5: still below by its score; practice holds it at `at`.
    const low = await regrade(teacher, result.id, sa, { earnedPoints: 1 });
    expect(low.body).toMatchObject({
      percentage: '20.00',
      performanceLevel: 'at',
      originalLevel: 'below',
      raisedBy: 'practice',
    });
    // 5 of 5 once the true/false is marked right by hand too: above by its score.
    await regrade(teacher, result.id, sa, { earnedPoints: 2 });
    const high = await regrade(teacher, result.id, tf, { earnedPoints: 3 });
    expect(high.body).toMatchObject({
      percentage: '100.00',
      performanceLevel: 'above',
      originalLevel: 'above',
      raisedBy: null,
    });
    const last = (await outboxFor(h, id)).filter((e) => e.type === 'ResultRegraded').pop()!;
    expect(last.message).toMatchObject({ level: 'above', scoreLevel: 'above' });
  });
});

describe('the counted attempt after a regrade', () => {
  it("when counted is best and a regrade makes another attempt the best, then it counts, in the regrade's transaction, with CountedResultChanged", async () => {
    const student = actor('student', tenant);
    const { id, sa, tf } = await assigned([student], { maxAttempts: 2, countedAttempt: 'best' });
    // Attempt 1: 3 of 5 (60 %); attempt 2: 2 of 5 (40 %): attempt 1 is the best.
    const first = await submitted(student, id, { [sa]: 'no idea', [tf]: 'true' });
    expect((await call(h, teacher, 'POST', `/api/results/${first.id}/retake`)).status).toBe(200);
    const second = await submitted(student, id, { [sa]: 'evaporation', [tf]: 'false' });
    expect(second).toMatchObject({ attempt: 2, counted: false });
    const countedOf = async () =>
      (
        (await call(h, student, 'GET', '/api/student/results')).body as {
          assessmentId: string;
          attempt: number;
          counted: boolean;
        }[]
      )
        .filter((r) => r.assessmentId === id)
        .sort((x, y) => x.attempt - y.attempt)
        .map((r) => r.counted);
    const changes = async () =>
      (await outboxFor(h, id))
        .filter((e) => e.type === 'CountedResultChanged')
        .map((e) => {
          const r = e.message.result as { resultId: string; attempt: number; counted: boolean; percentage: number };
          return [r.resultId, r.attempt, r.counted, r.percentage];
        });
    expect(await changes()).toEqual([]);

    // The true/false of attempt 2 marked right by hand: 5 of 5, attempt 2 is the best now.
    const up = await regrade(teacher, second.id, tf, { earnedPoints: 3 });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ percentage: '100.00', counted: true });
    expect(await countedOf()).toEqual([false, true]);
    expect(await changes()).toEqual([[second.id, 2, true, 100]]);
    const types = (await outboxFor(h, id)).map((e) => e.type);
    expect(types.lastIndexOf('CountedResultChanged')).toBeGreaterThan(types.lastIndexOf('ResultRegraded'));

    // A regrade that leaves the best where it is changes no count.
    await regrade(teacher, first.id, sa, { earnedPoints: 1 });
    expect(await countedOf()).toEqual([false, true]);
    expect(await changes()).toHaveLength(1);

    // Taken back to 2 of 5 (40 %): attempt 1 (now 4 of 5, 80 %) counts again.
    const down = await regrade(teacher, second.id, tf, { earnedPoints: 0 });
    expect(down.body).toMatchObject({ percentage: '40.00', counted: false });
    expect(await countedOf()).toEqual([true, false]);
    expect(await changes()).toEqual([
      [second.id, 2, true, 100],
      [first.id, 1, true, 80],
    ]);
  });

  it('when counted is latest, then a regrade of an earlier attempt never moves the count', async () => {
    const student = actor('student', tenant);
    const { id, sa, tf } = await assigned([student], { maxAttempts: 2 });
    const first = await submitted(student, id, { [sa]: 'no idea', [tf]: 'false' });
    expect((await call(h, teacher, 'POST', `/api/results/${first.id}/retake`)).status).toBe(200);
    await submitted(student, id, { [sa]: 'no idea', [tf]: 'false' });
    const up = await regrade(teacher, first.id, tf, { earnedPoints: 3 });
    expect(up.body).toMatchObject({ percentage: '60.00', counted: false });
    expect((await outboxFor(h, id)).filter((e) => e.type === 'CountedResultChanged')).toEqual([]);
  });
});

describe('refusals', () => {
  it('when the points are out of range, the feedback too long, or the body malformed, then 400 names the field', async () => {
    const student = actor('student', tenant);
    const { id, sa } = await assigned([student]);
    const result = await submitted(student, id, { [sa]: 'x' });
    for (const earnedPoints of [2.5, -1]) {
      const r = await regrade(teacher, result.id, sa, { earnedPoints });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(JSON.stringify(r.body)).toContain('earnedPoints');
    }
    for (const body of [{}, { earnedPoints: 'two' }]) {
      const r = await regrade(teacher, result.id, sa, body);
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain('earnedPoints');
    }
    const long = await regrade(teacher, result.id, sa, { earnedPoints: 1, feedback: 'x'.repeat(5001) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('feedback');
    const longOverall = await call(h, teacher, 'PUT', `/api/results/${result.id}/feedback`, {
      feedback: 'x'.repeat(5001),
    });
    expect(longOverall.status).toBe(400);
    expect(JSON.stringify(longOverall.body)).toContain('feedback');
    // Nothing changed, nothing audited, no event.
    expect((await h.sql.query('select 1 from result_regrades where result_id = $1', [result.id])).rowCount).toBe(0);
    expect((await outboxFor(h, id)).filter((e) => e.type === 'ResultRegraded')).toHaveLength(0);
  });

  it('when the question is not of the result, then 404; when the caller is not its teacher, then 404 (a student 403)', async () => {
    const student = actor('student', tenant);
    const { id, sa } = await assigned([student]);
    const result = await submitted(student, id, { [sa]: 'x' });
    expect((await regrade(teacher, result.id, randomUUID(), { earnedPoints: 1 })).status).toBe(404);
    expect((await regrade(teacher, result.id, 'not-a-uuid', { earnedPoints: 1 })).status).toBe(404);
    expect((await regrade(teacher, randomUUID(), sa, { earnedPoints: 1 })).status).toBe(404);

    const otherTeacher = actor('teacher', tenant);
    const otherTenant = actor('teacher');
    const sameIdOtherTenant = { ...teacher, tenantId: randomUUID() };
    for (const who of [otherTeacher, otherTenant, sameIdOtherTenant]) {
      expect((await regrade(who, result.id, sa, { earnedPoints: 1 })).status).toBe(404);
      expect((await call(h, who, 'PUT', `/api/results/${result.id}/feedback`, { feedback: 'x' })).status).toBe(404);
      expect((await call(h, who, 'GET', `/api/results/${result.id}/regrades`)).status).toBe(404);
      expect((await call(h, who, 'GET', `/api/assessments/${id}/to-review`)).status).toBe(404);
    }
    expect((await regrade(student, result.id, sa, { earnedPoints: 2 })).status).toBe(403);
    expect((await call(h, student, 'PUT', `/api/results/${result.id}/feedback`, { feedback: 'x' })).status).toBe(403);
    expect((await call(h, student, 'GET', `/api/assessments/${id}/to-review`)).status).toBe(403);
    expect((await call(h, student, 'GET', `/api/results/${result.id}`)).body.earnedPoints).toBe('0.00');
  });
});

describe('co-teachers', () => {
  it("when a co-teacher of the result's class regrades, then it is taken as the owner's would be; once removed, 404", async () => {
    const student = actor('student', tenant);
    const coTeacher = actor('teacher', tenant);
    const { id, sa } = await assigned([student]);
    const classId = (await call(h, teacher, 'GET', `/api/assessments/${id}`)).body.classId as string;
    const setCoTeachers = (coTeacherIds: string[]) =>
      deliver(
        h,
        ClassUpdatedSchema,
        {
          classId,
          tenantId: tenant,
          teacherId: teacher.userId,
          name: 'Algebra I',
          subject: 'Math',
          period: '1',
          joinCode: 'ABC123',
          coTeacherIds,
        },
        { key: classId, tenantId: tenant, source: 'class' },
      );
    const result = await submitted(student, id, { [sa]: 'the sun heats the water' });
    await setCoTeachers([coTeacher.userId]);
    const marked = await regrade(coTeacher, result.id, sa, { earnedPoints: 2, feedback: 'Right, in your words.' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body.earnedPoints).toBe('2.00');
    await setCoTeachers([]);
    expect((await regrade(coTeacher, result.id, sa, { earnedPoints: 1 })).status).toBe(404);
    expect((await call(h, coTeacher, 'GET', `/api/results/${result.id}`)).status).toBe(404);
  });
});

describe('answers waiting for review', () => {
  it('when review is on, then a short answer off the key waits in the list with 0 points, and the teacher marks it', async () => {
    const student = actor('student', tenant);
    const exact = actor('student', tenant);
    const { id, sa, tf } = await assigned([student, exact], { reviewShortAnswers: true });
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}`)).body.reviewShortAnswers).toBe(true);

    const waiting = await submitted(student, id, { [sa]: 'the sun heats the water', [tf]: 'true' });
    // Provisional: the waiting answer earns nothing yet and is neither right nor wrong.
    expect(waiting).toMatchObject({
      earnedPoints: '3.00',
      percentage: '60.00',
      performanceLevel: 'below',
      pendingReview: 1,
      correctAnswers: 1,
      incorrectAnswers: 0,
    });
    expect((waiting.questions as { questionId: string }[]).find((x) => x.questionId === sa)).toMatchObject({
      pending: true,
      correct: false,
      earnedPoints: '0.00',
    });
    const submittedEvent = (await outboxFor(h, id)).find((e) => e.type === 'ResultSubmitted')!;
    expect(submittedEvent.message.answers).toMatchObject([
      { questionId: sa, pending: true, correct: false },
      { pending: false },
    ]);
    // An exact match is marked at once.
    const marked = await submitted(exact, id, { [sa]: 'Evaporation', [tf]: 'true' });
    expect(marked).toMatchObject({ pendingReview: 0, earnedPoints: '5.00' });

    const list = await call(h, teacher, 'GET', `/api/assessments/${id}/to-review`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        resultId: waiting.id,
        studentId: student.userId,
        questionId: sa,
        answer: 'the sun heats the water',
        correctAnswer: 'evaporation',
        points: '2.00',
      }),
    ]);

    const reviewed = await regrade(teacher, waiting.id, sa, { earnedPoints: 2, feedback: 'Yes: evaporation.' });
    expect(reviewed.body).toMatchObject({ pendingReview: 0, earnedPoints: '5.00', performanceLevel: 'above' });
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}/to-review`)).body).toEqual([]);
    const audit = await h.sql.query('select old_points, new_points from result_regrades where result_id = $1', [
      waiting.id,
    ]);
    // It was waiting: no points before.
    expect(audit.rows).toEqual([{ old_points: null, new_points: 2 }]);
  });

  it('when review is off (the default), then a short answer off the key is marked wrong at once', async () => {
    const student = actor('student', tenant);
    const { id, sa } = await assigned([student]);
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}`)).body.reviewShortAnswers).toBe(false);
    const result = await submitted(student, id, { [sa]: 'the sun heats the water' });
    expect(result).toMatchObject({ pendingReview: 0, incorrectAnswers: 2 });
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}/to-review`)).body).toEqual([]);
  });

  it('when reviewShortAnswers is not a boolean, then 400 names it', async () => {
    const { id } = await assigned([]);
    const r = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { reviewShortAnswers: 'yes' });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('reviewShortAnswers');
  });
});
