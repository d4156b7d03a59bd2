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
