// A student's accommodations against real Postgres (#32 item 1): who reads and sets them, the
// refusals naming the field, fewer answer choices in the questions the student reads (the key
// always among them, the same on every read, the classmates' questions untouched) and extra time
// on a timed attempt (a factor, or no limit), enforced by the server.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionsGeneratedSchema } from '@checkpoint/events';
import {
  actor,
  call,
  deliver,
  enrol,
  givenClass,
  MC,
  outboxFor,
  startAssessmentService,
  VALID_CREATE,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);
const admin = actor('admin', tenant);
const colleague = actor('teacher', tenant);
const otherAdmin = actor('admin', randomUUID());

beforeAll(async () => {
  h = await startAssessmentService({ RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '1000' });
});
afterAll(async () => {
  await h?.stop();
});

const MC2 = {
  questionText: 'Which is a prime number?',
  questionType: 'multiple_choice',
  options: ['4', '6', '7', '9'],
  correctAnswer: '7',
  points: 1,
};

/** A class of the teacher with these students and an assigned assessment of two multiple-choice questions. */
async function givenAssessment(...students: Actor[]) {
  const classId = await givenClass(h, teacher);
  for (const s of students) await enrol(h, classId, tenant, s);
  const id = (await call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, numberOfQuestions: 2, classId }))
    .body.id as string;
  await deliver(
    h,
    QuestionsGeneratedSchema,
    { jobId: randomUUID(), assessmentId: id, tenantId: tenant, provider: 'offline', questions: [MC, MC2] },
    { key: id, tenantId: tenant, source: 'generation' },
  );
  expect((await call(h, teacher, 'POST', `/api/assessments/${id}/assign`)).status).toBe(200);
  const questions = (await call(h, teacher, 'GET', `/api/assessments/${id}/questions`)).body as { id: string }[];
  return { classId, id, questions };
}

const path = (classId: string, student: Actor) => `/api/classes/${classId}/students/${student.userId}/accommodations`;
const NONE = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};

describe('accommodations', () => {
  it("when a teacher of the class or the district's admin sets them, then they read them back; each field left out keeps the stored one", async () => {
    const student = actor('student', tenant);
    const { classId } = await givenAssessment(student);
    expect((await call(h, teacher, 'GET', path(classId, student))).body).toEqual(NONE);
    const set = await call(h, teacher, 'PUT', path(classId, student), { readAloud: true, reducedChoices: 1 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ ...NONE, readAloud: true, reducedChoices: 1 });
    const byAdmin = await call(h, admin, 'PUT', path(classId, student), { extraTime: 1.5, largeText: true });
    expect(byAdmin.body).toEqual({ ...NONE, readAloud: true, reducedChoices: 1, extraTime: 1.5, largeText: true });
    expect((await call(h, admin, 'PUT', path(classId, student), { extraTime: 'none' })).body.extraTime).toBe('none');
    expect((await call(h, teacher, 'GET', path(classId, student))).body).toEqual({
      ...NONE,
      readAloud: true,
      reducedChoices: 1,
      extraTime: 'none',
      largeText: true,
    });
    // Each change says where practice is served (generation) how many choices the student sees fewer.
    const changed = (await outboxFor(h, student.userId)).filter((e) => e.type === 'AccommodationsChanged');
    expect(changed.map((e) => e.message)).toEqual(
      [1, 1, 1].map((reducedChoices) =>
        expect.objectContaining({ tenantId: tenant, studentId: student.userId, reducedChoices }),
      ),
    );
  });

  it('when someone who does not teach the student asks, then 404 (a student: 403), and nothing changes', async () => {
    const student = actor('student', tenant);
    const outsider = actor('student', tenant);
    const { classId } = await givenAssessment(student);
    await call(h, teacher, 'PUT', path(classId, student), { lineGuide: true });
    for (const who of [colleague, otherAdmin]) {
      expect((await call(h, who, 'GET', path(classId, student))).status).toBe(404);
      expect((await call(h, who, 'PUT', path(classId, student), { lineGuide: false })).status).toBe(404);
    }
    expect((await call(h, student, 'GET', path(classId, student))).status).toBe(403);
    // A student who is not in the class, and ids that are not ids.
    expect((await call(h, teacher, 'GET', path(classId, outsider))).status).toBe(404);
    expect((await call(h, teacher, 'GET', `/api/classes/${classId}/students/nope/accommodations`)).status).toBe(404);
    expect((await call(h, teacher, 'GET', path(classId, student))).body.lineGuide).toBe(true);
  });

  it.each([
    [{ reducedChoices: 3 }, 'reducedChoices'],
    [{ reducedChoices: 1.5 }, 'reducedChoices'],
    [{ extraTime: 0.5 }, 'extraTime'],
    [{ extraTime: 'lots' }, 'extraTime'],
    [{ extraTime: 1.33 }, 'extraTime'],
    [{ readAloud: 'yes' }, 'readAloud'],
  ])('when the body is %j, then 400 names %s and the stored set stays', async (body, field) => {
    const student = actor('student', tenant);
    const { classId } = await givenAssessment(student);
    await call(h, teacher, 'PUT', path(classId, student), { answerMasking: true });
    const res = await call(h, teacher, 'PUT', path(classId, student), body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toEqual([field]);
    expect((await call(h, teacher, 'GET', path(classId, student))).body).toEqual({ ...NONE, answerMasking: true });
    // A refused change sends nothing.
    expect((await outboxFor(h, student.userId)).filter((e) => e.type === 'AccommodationsChanged')).toHaveLength(1);
  });

  it('when a student has reduced choices, then their multiple-choice questions show the key and fewer distractors, the same on every read; a classmate sees all four', async () => {
    const student = actor('student', tenant);
    const classmate = actor('student', tenant);
    const { classId, id, questions } = await givenAssessment(student, classmate);
    await call(h, teacher, 'PUT', path(classId, student), { reducedChoices: 2 });
    const read = async (who: Actor) =>
      (await call(h, who, 'GET', `/api/assessments/${id}/questions`)).body as { id: string; options: string[] }[];
    const first = await read(student);
    expect(first.map((q) => q.options.length)).toEqual([2, 2]);
    expect(first[0]!.options).toContain('3/4');
    expect(first[1]!.options).toContain('7');
    expect(await read(student)).toEqual(first);
    expect((await read(classmate)).map((q) => q.options)).toEqual([MC.options, MC2.options]);
    // Scoring is the question's: the key they saw is right.
    for (const [i, answer] of ['3/4', '7'].entries())
      await call(h, student, 'POST', '/api/responses', { assessmentId: id, questionId: questions[i]!.id, answer });
    const result = await call(h, student, 'POST', '/api/results', { assessmentId: id });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.correctAnswers).toBe(2);
  });

  it("when a student with reduced choices submits, then the result event carries on each answer the options the questions route showed them; a classmate's carries none (all shown)", async () => {
    const student = actor('student', tenant);
    const classmate = actor('student', tenant);
    const { classId, id, questions } = await givenAssessment(student, classmate);
    await call(h, teacher, 'PUT', path(classId, student), { reducedChoices: 1 });
    const seen = (await call(h, student, 'GET', `/api/assessments/${id}/questions`)).body as {
      id: string;
      options: string[];
    }[];
    expect(seen.map((q) => q.options.length)).toEqual([3, 3]);
    for (const who of [student, classmate]) {
      await call(h, who, 'POST', '/api/responses', { assessmentId: id, questionId: questions[0]!.id, answer: '3/4' });
      expect((await call(h, who, 'POST', '/api/results', { assessmentId: id })).status).toBe(201);
    }
    const submitted = (await outboxFor(h, id))
      .filter((e) => e.type === 'ResultSubmitted')
      .map(
        (e) =>
          e.message as {
            resultId: string;
            studentId: string;
            answers: { questionId: string; shownOptions: string[] }[];
          },
      );
    const shownTo = (who: Actor) =>
      submitted.find((m) => m.studentId === who.userId)!.answers.map((a) => [a.questionId, a.shownOptions]);
    expect(shownTo(student)).toEqual(seen.map((q) => [q.id, q.options]));
    expect(shownTo(classmate)).toEqual(questions.map((q) => [q.id, []]));
    // The result's review keeps them, so the teacher's later regrade sends the same ones.
    const { resultId } = submitted.find((m) => m.studentId === student.userId)!;
    const regraded = await call(h, teacher, 'PATCH', `/api/results/${resultId}/responses/${questions[1]!.id}`, {
      earnedPoints: 1,
    });
    expect(regraded.status, JSON.stringify(regraded.body)).toBe(200);
    const regrade = (await outboxFor(h, id)).find((e) => e.type === 'ResultRegraded')!.message as {
      answers: { questionId: string; shownOptions: string[] }[];
    };
    expect(regrade.answers.map((a) => [a.questionId, a.shownOptions])).toEqual(seen.map((q) => [q.id, q.options]));
  });

  it('when a student has extra time, then their time limit is multiplied and enforced by the server; with no limit, they answer at any time', async () => {
    const slower = actor('student', tenant);
    const unlimited = actor('student', tenant);
    const classmate = actor('student', tenant);
    const { classId, id, questions } = await givenAssessment(slower, unlimited, classmate);
    expect((await call(h, teacher, 'PUT', `/api/assessments/${id}`, { timeLimitSeconds: 600 })).status).toBe(200);
    await call(h, teacher, 'PUT', path(classId, slower), { extraTime: 2 });
    await call(h, teacher, 'PUT', path(classId, unlimited), { extraTime: 'none' });
    const view = async (who: Actor) => (await call(h, who, 'GET', `/api/assessments/${id}`)).body;
    expect((await view(slower)).timeLimitSeconds).toBe(1200);
    expect((await view(unlimited)).timeLimitSeconds).toBeNull();
    expect((await view(classmate)).timeLimitSeconds).toBe(600);
    for (const who of [slower, unlimited, classmate]) await call(h, who, 'GET', `/api/assessments/${id}/questions`);
    expect((await view(slower)).secondsLeft).toBeGreaterThan(1190);
    // Fifteen minutes in: the classmate's 10 minutes are over, the slower student's 20 are not.
    await h.sql.query(`update attempt_starts set started_at = now() - interval '15 minutes' where assessment_id = $1`, [
      id,
    ]);
    const save = (who: Actor) =>
      call(h, who, 'POST', '/api/responses', { assessmentId: id, questionId: questions[0]!.id, answer: '3/4' });
    expect((await save(slower)).status).toBe(200);
    expect((await save(unlimited)).status).toBe(200);
    const late = await save(classmate);
    expect(late.status).toBe(409);
    expect(['time_up', 'already_submitted']).toContain(late.body.code);
    // Two hours in: the slower student's time is over too; no limit is no limit.
    await h.sql.query(`update attempt_starts set started_at = now() - interval '2 hours' where assessment_id = $1`, [
      id,
    ]);
    expect((await save(slower)).status).toBe(409);
    expect((await save(unlimited)).status).toBe(200);
  });

  it("when a teacher of the class or the district's admin lists the class, then each student comes with their name and accommodations (none set: all off); others 404, students 403", async () => {
    const ana = actor('student', tenant);
    const ben = actor('student', tenant);
    const { classId } = await givenAssessment(ana, ben);
    for (const [s, first, last] of [
      [ana, 'Ana', 'Zamora'],
      [ben, 'Ben', 'Abbott'],
    ] as const)
      await h.sql.query('insert into people (user_id, tenant_id, first_name, last_name) values ($1, $2, $3, $4)', [
        s.userId,
        tenant,
        first,
        last,
      ]);
    await call(h, teacher, 'PUT', path(classId, ana), { readAloud: true, extraTime: 'none' });
    const list = await call(h, teacher, 'GET', `/api/classes/${classId}/accommodations`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toEqual([
      { studentId: ben.userId, firstName: 'Ben', lastName: 'Abbott', ...NONE },
      { studentId: ana.userId, firstName: 'Ana', lastName: 'Zamora', ...NONE, readAloud: true, extraTime: 'none' },
    ]);
    expect((await call(h, admin, 'GET', `/api/classes/${classId}/accommodations`)).body).toEqual(list.body);
    for (const who of [colleague, otherAdmin])
      expect((await call(h, who, 'GET', `/api/classes/${classId}/accommodations`)).status).toBe(404);
    expect((await call(h, ana, 'GET', `/api/classes/${classId}/accommodations`)).status).toBe(403);
    expect((await call(h, teacher, 'GET', `/api/classes/${randomUUID()}/accommodations`)).status).toBe(404);
    expect((await call(h, teacher, 'GET', '/api/classes/nope/accommodations')).status).toBe(404);
  });

  it("when a student reads their own accommodations, then they get theirs (none set: all off) and never a classmate's; teachers 403", async () => {
    const student = actor('student', tenant);
    const classmate = actor('student', tenant);
    const { classId } = await givenAssessment(student, classmate);
    await call(h, teacher, 'PUT', path(classId, student), { largeText: true, answerMasking: true, reducedChoices: 1 });
    const own = await call(h, student, 'GET', '/api/student/accommodations');
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ ...NONE, largeText: true, answerMasking: true, reducedChoices: 1 });
    expect((await call(h, classmate, 'GET', '/api/student/accommodations')).body).toEqual(NONE);
    expect((await call(h, teacher, 'GET', '/api/student/accommodations')).status).toBe(403);
    expect((await call(h, admin, 'GET', '/api/student/accommodations')).status).toBe(403);
  });
});
