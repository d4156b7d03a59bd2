// Co-teachers (issue 30, item 8): the class events' co_teacher_ids let a co-teacher do with the
// class's assessments what its owner does (list, create, edit, assign, read answers and results),
// the owner sees what the co-teacher made; once removed (a ClassUpdated without them) they cannot.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassUpdatedSchema } from '@checkpoint/events';
import {
  actor,
  call,
  deliver,
  enrol,
  givenClass,
  MC,
  readyAssessment,
  startAssessmentService,
  VALID_CREATE,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startAssessmentService();
});
afterAll(async () => {
  await h?.stop();
});

const setCoTeachers = (classId: string, owner: Actor, coTeacherIds: string[]) =>
  deliver(
    h,
    ClassUpdatedSchema,
    {
      classId,
      tenantId: owner.tenantId,
      teacherId: owner.userId,
      name: 'Biology',
      subject: 'Science',
      period: '1',
      joinCode: 'ABC123',
      coTeacherIds,
    },
    { key: classId, tenantId: owner.tenantId, source: 'class' },
  );

/** A ready assessment (one MC question) made by `who` in the class. */
const ready = async (who: Actor, classId: string) => (await readyAssessment(h, who, classId, [MC])).id;

describe('a co-teacher of the class', () => {
  it('lists, creates, assigns and reads results of the class assessments; after removal, none of it', async () => {
    const tenant = randomUUID();
    const owner = actor('teacher', tenant);
    const co = actor('teacher', tenant);
    const classId = await givenClass(h, owner, 'Biology', 'Science');
    const student = actor('student', tenant);
    await enrol(h, classId, tenant, student);
    const ownersOwn = await ready(owner, classId);

    // Before being added: nothing.
    expect((await call(h, co, 'GET', `/api/classes/${classId}/assessments`)).status).toBe(404);
    expect((await call(h, co, 'GET', `/api/assessments/${ownersOwn}`)).status).toBe(404);

    await setCoTeachers(classId, owner, [co.userId]);
    const listed = await call(h, co, 'GET', `/api/classes/${classId}/assessments`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((a: { id: string }) => a.id)).toEqual([ownersOwn]);

    // The co-teacher creates one and assigns it; the owner sees and manages it too.
    const coMade = await ready(co, classId);
    const assign = await call(h, co, 'POST', `/api/assessments/${coMade}/assign`);
    expect(assign.status, JSON.stringify(assign.body)).toBe(200);
    expect((await call(h, owner, 'GET', `/api/assessments/${coMade}`)).status).toBe(200);
    expect((await call(h, owner, 'GET', '/api/assessments')).body.map((a: { id: string }) => a.id)).toContain(coMade);
    const edited = await call(h, co, 'PUT', `/api/assessments/${ownersOwn}`, {
      title: 'Edited by the co-teacher',
      topic: 'Fractions',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await call(h, co, 'POST', `/api/assessments/${ownersOwn}/assign`)).status).toBe(200);

    // The student takes the owner's assessment; the co-teacher reads the answers and the result.
    const questions = (await call(h, co, 'GET', `/api/assessments/${ownersOwn}/questions`)).body as { id: string }[];
    expect(questions).toHaveLength(1);
    await call(h, student, 'POST', '/api/responses', {
      assessmentId: ownersOwn,
      questionId: questions[0]!.id,
      answer: MC.correctAnswer,
    });
    const submitted = await call(h, student, 'POST', '/api/results', { assessmentId: ownersOwn });
    expect(submitted.status).toBe(201);
    const resultId = submitted.body.id as string;
    const answers = await call(h, co, 'GET', `/api/assessments/${ownersOwn}/responses`);
    expect(answers.status).toBe(200);
    expect(answers.body).toHaveLength(1);
    const result = await call(h, co, 'GET', `/api/results/${resultId}`);
    expect(result.status).toBe(200);
    expect(Number(result.body.percentage)).toBe(100);

    // Removed: the class, its assessments and results are no longer theirs, even the one they made.
    await setCoTeachers(classId, owner, []);
    expect((await call(h, co, 'GET', `/api/classes/${classId}/assessments`)).status).toBe(404);
    expect((await call(h, co, 'GET', `/api/assessments/${coMade}`)).status).toBe(404);
    expect((await call(h, co, 'GET', `/api/results/${resultId}`)).status).toBe(404);
    expect((await call(h, co, 'POST', '/api/assessments', { ...VALID_CREATE, classId })).status).toBe(404);
    expect((await call(h, co, 'GET', '/api/assessments')).body).toEqual([]);
    // The owner keeps both.
    expect((await call(h, owner, 'GET', `/api/classes/${classId}/assessments`)).body).toHaveLength(2);
  });

  it('of another tenant (an individual account co-teaching) creates assessments that belong to the class tenant', async () => {
    const owner = actor('teacher');
    const co = actor('teacher');
    const classId = await givenClass(h, owner, 'Solo', 'Math');
    await setCoTeachers(classId, owner, [co.userId]);
    const made = await ready(co, classId);
    const { rows } = await h.sql.query<{ tenant_id: string; teacher_id: string }>(
      'select tenant_id, teacher_id from assessments where id = $1',
      [made],
    );
    expect(rows[0]).toEqual({ tenant_id: owner.tenantId, teacher_id: co.userId });
    expect((await call(h, owner, 'GET', `/api/assessments/${made}`)).status).toBe(200);
    expect((await call(h, co, 'GET', `/api/assessments/${made}`)).status).toBe(200);
  });

  it("reads an assessment assigned to the class from another of the owner's classes, and only their students' answers", async () => {
    const tenant = randomUUID();
    const owner = actor('teacher', tenant);
    const co = actor('teacher', tenant);
    const home = await givenClass(h, owner, 'Period 1', 'Math');
    const coTaught = await givenClass(h, owner, 'Period 2', 'Math');
    const inHome = actor('student', tenant);
    const inCoTaught = actor('student', tenant);
    await enrol(h, home, tenant, inHome);
    await enrol(h, coTaught, tenant, inCoTaught);
    await setCoTeachers(coTaught, owner, [co.userId]);
    const id = await ready(owner, home);

    // Not assigned to the co-taught class yet: not theirs to read.
    expect((await call(h, co, 'GET', `/api/classes/${coTaught}/assessments`)).body).toEqual([]);
    expect((await call(h, co, 'GET', `/api/assessments/${id}`)).status).toBe(404);

    const assigned = await call(h, owner, 'POST', `/api/assessments/${id}/assign`, { classIds: [home, coTaught] });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const listed = await call(h, co, 'GET', `/api/classes/${coTaught}/assessments`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((a: { id: string }) => a.id)).toEqual([id]);
    // Read only for them (the web hides the edit controls): `canEdit` says so on every read.
    expect(listed.body[0].canEdit).toBe(false);
    const read = await call(h, co, 'GET', `/api/assessments/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.canEdit).toBe(false);
    expect((await call(h, owner, 'GET', `/api/assessments/${id}`)).body.canEdit).toBe(true);
    expect((await call(h, owner, 'GET', `/api/classes/${coTaught}/assessments`)).body[0].canEdit).toBe(true);
    const questions = await call(h, co, 'GET', `/api/assessments/${id}/questions`);
    expect(questions.status).toBe(200);
    const questionId = (questions.body as { id: string }[])[0]!.id;

    // Both students answer; the co-teacher reads their own class's answers and result, not the other's.
    const results: Record<string, string> = {};
    for (const s of [inHome, inCoTaught]) {
      await call(h, s, 'POST', '/api/responses', { assessmentId: id, questionId, answer: MC.correctAnswer });
      const submitted = await call(h, s, 'POST', '/api/results', { assessmentId: id });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
      results[s.userId] = submitted.body.id as string;
    }
    const answers = await call(h, co, 'GET', `/api/assessments/${id}/responses`);
    expect(answers.status).toBe(200);
    expect(answers.body.map((r: { studentId: string }) => r.studentId)).toEqual([inCoTaught.userId]);
    expect((await call(h, owner, 'GET', `/api/assessments/${id}/responses`)).body).toHaveLength(2);
    expect((await call(h, co, 'GET', `/api/results/${results[inCoTaught.userId]}`)).status).toBe(200);
    expect((await call(h, co, 'GET', `/api/results/${results[inHome.userId]}`)).status).toBe(404);

    // Changing it stays with the teachers of its own class.
    expect((await call(h, co, 'PUT', `/api/assessments/${id}`, { title: 'Mine now', topic: 'Fractions' })).status).toBe(
      404,
    );
    expect((await call(h, co, 'DELETE', `/api/assessments/${id}`)).status).toBe(404);

    // Removed from the class: nothing of it.
    await setCoTeachers(coTaught, owner, []);
    expect((await call(h, co, 'GET', `/api/assessments/${id}`)).status).toBe(404);
    expect((await call(h, co, 'GET', `/api/assessments/${id}/responses`)).status).toBe(404);
  });

  it("reviews the short answers of their own class's students in an assessment assigned from another class, and grades them", async () => {
    const tenant = randomUUID();
    const owner = actor('teacher', tenant);
    const co = actor('teacher', tenant);
    const home = await givenClass(h, owner, 'Period 1', 'Science');
    const coTaught = await givenClass(h, owner, 'Period 2', 'Science');
    const [inHome, inCoTaught] = [actor('student', tenant), actor('student', tenant)];
    await enrol(h, home, tenant, inHome);
    await enrol(h, coTaught, tenant, inCoTaught);
    await setCoTeachers(coTaught, owner, [co.userId]);
    const SA = {
      questionText: 'What is the process by which water becomes vapour?',
      questionType: 'short_answer',
      options: [],
      correctAnswer: 'evaporation',
      points: 2,
    };
    const { id } = await readyAssessment(h, owner, home, [SA]);
    expect((await call(h, owner, 'PUT', `/api/assessments/${id}`, { reviewShortAnswers: true })).status).toBe(200);
    expect((await call(h, owner, 'POST', `/api/assessments/${id}/assign`, { classIds: [home, coTaught] })).status).toBe(
      200,
    );
    const questionId = ((await call(h, owner, 'GET', `/api/assessments/${id}/questions`)).body as { id: string }[])[0]!
      .id;
    const results: Record<string, string> = {};
    for (const s of [inHome, inCoTaught]) {
      await call(h, s, 'POST', '/api/responses', { assessmentId: id, questionId, answer: 'the sun heats it' });
      results[s.userId] = (await call(h, s, 'POST', '/api/results', { assessmentId: id })).body.id as string;
    }

    const mine = await call(h, co, 'GET', `/api/assessments/${id}/to-review`);
    expect(mine.status).toBe(200);
    expect(mine.body.map((i: { studentId: string }) => i.studentId)).toEqual([inCoTaught.userId]);
    expect((await call(h, owner, 'GET', `/api/assessments/${id}/to-review`)).body).toHaveLength(2);
    const mark = { earnedPoints: 2, feedback: 'Right: that is evaporation.' };
    const path = (who: Actor) => `/api/results/${results[who.userId]}/responses/${questionId}`;
    expect((await call(h, co, 'PATCH', path(inCoTaught), mark)).status).toBe(200);
    expect((await call(h, co, 'PATCH', path(inHome), mark)).status).toBe(404);
    expect((await call(h, co, 'GET', `/api/assessments/${id}/to-review`)).body).toEqual([]);
  });

  it('another teacher of the tenant, not a co-teacher, still finds nothing', async () => {
    const tenant = randomUUID();
    const owner = actor('teacher', tenant);
    const co = actor('teacher', tenant);
    const stranger = actor('teacher', tenant);
    const classId = await givenClass(h, owner);
    await setCoTeachers(classId, owner, [co.userId]);
    const id = await ready(co, classId);
    expect((await call(h, stranger, 'GET', `/api/assessments/${id}`)).status).toBe(404);
    expect((await call(h, stranger, 'GET', `/api/classes/${classId}/assessments`)).status).toBe(404);
  });
});
