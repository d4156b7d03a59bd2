// One assessment for several classes and for chosen students, against real Postgres: who may open,
// answer and submit it, under which class their result is filed, what each class's list shows,
// the refusals naming the field, copying into another class, and a class's deletion.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassArchivedSchema, ClassDeletedSchema } from '@checkpoint/events';
import {
  actor,
  call,
  classWith,
  deliver,
  enrol,
  givenClass,
  MC,
  outboxFor,
  readyAssessment,
  startAssessmentService,
  submitAnswers,
  TF,
  VALID_CREATE,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);

beforeAll(async () => {
  h = await startAssessmentService();
});
afterAll(async () => {
  await h?.stop();
});

/** A ready (unassigned) assessment of two questions in `classId`. */
const draftIn = (classId: string) => readyAssessment(h, teacher, classId);

/** Two classes of the teacher, with their students. */
async function twoPeriods() {
  const p1 = [actor('student', tenant), actor('student', tenant)];
  const p3 = [actor('student', tenant), actor('student', tenant)];
  const period1 = await classWith(h, teacher, p1, 'Biology P1', 'Science');
  const period3 = await classWith(h, teacher, p3, 'Biology P3', 'Science');
  return { period1, period3, p1, p3 };
}

const opens = async (student: Actor, id: string) => (await call(h, student, 'GET', `/api/assessments/${id}`)).status;
const available = async (student: Actor) =>
  (await call(h, student, 'GET', '/api/student/available-assessments')).body as { id: string; classId: string }[];

describe('one assessment, many classes', () => {
  it('when assigned to two classes, then students of both take it, each result filed under their own class, and each class lists it', async () => {
    const { period1, period3, p1, p3 } = await twoPeriods();
    const { id, questions } = await draftIn(period1);
    const assign = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { classIds: [period1, period3] });
    expect(assign.status, JSON.stringify(assign.body)).toBe(200);
    expect(assign.body).toEqual({ message: 'Assessment assigned to 4 students', assignedCount: 4 });

    const view = (await call(h, teacher, 'GET', `/api/assessments/${id}`)).body;
    expect(view.assignedTo).toEqual([
      { classId: period1, className: 'Biology P1', wholeClass: true, studentIds: [] },
      { classId: period3, className: 'Biology P3', wholeClass: true, studentIds: [] },
    ]);
    for (const classId of [period1, period3]) {
      const listed = (await call(h, teacher, 'GET', `/api/classes/${classId}/assessments`)).body as { id: string }[];
      expect(listed.map((a) => a.id)).toContain(id);
    }

    // A student of the second class sees it under their class, answers and submits.
    const student = p3[0]!;
    expect((await available(student)).find((a) => a.id === id)?.classId).toBe(period3);
    const opened = await call(h, student, 'GET', `/api/assessments/${id}`);
    expect(opened.status).toBe(200);
    expect(opened.body.className).toBe('Biology P3');
    const submit = await submitAnswers(h, student, id, { [questions[1]!.id]: 'true' });
    expect(submit.classId).toBe(period3);
    const submitted = (await outboxFor(h, id)).filter((e) => e.type === 'ResultSubmitted');
    expect(submitted.map((e) => e.message.classId)).toEqual([period3]);
    // And the first class's student takes it through theirs.
    expect((await available(p1[0]!)).find((a) => a.id === id)?.classId).toBe(period1);

    // One event per class it was given to.
    const assigned = (await outboxFor(h, id)).filter((e) => e.type === 'AssessmentAssigned');
    expect(assigned.map((e) => [e.message.classId, e.message.onlyChosen])).toEqual([
      [period1, false],
      [period3, false],
    ]);
  });

  it('when a class is added later, then only that class gets an event, and assigning again changes nothing', async () => {
    const { period1, period3, p3 } = await twoPeriods();
    const { id } = await draftIn(period1);
    expect((await call(h, teacher, 'POST', `/api/assessments/${id}/assign`)).body.assignedCount).toBe(2);
    expect(await opens(p3[0]!, id)).toBe(404);
    const added = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { classIds: [period3] });
    expect(added.body.assignedCount).toBe(4);
    expect(await opens(p3[0]!, id)).toBe(200);
    await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { classIds: [period1, period3] });
    const assigned = (await outboxFor(h, id)).filter((e) => e.type === 'AssessmentAssigned');
    expect(assigned.map((e) => e.message.classId)).toEqual([period1, period3]);
  });

  it('refuses, naming the field, a class that is not the teacher’s or is archived, and a student outside the classes', async () => {
    const { period1, period3, p3 } = await twoPeriods();
    const { id } = await draftIn(period1);
    const stranger = actor('teacher', tenant);
    const theirs = await givenClass(h, stranger, 'Chemistry');
    const other = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { classIds: [period1, theirs] });
    expect(other.status).toBe(400);
    expect(other.body.fields).toEqual({ 'classIds.1': 'Not one of your classes' });
    await deliver(
      h,
      ClassArchivedSchema,
      { classId: period3, tenantId: tenant, teacherId: teacher.userId },
      { key: period3, tenantId: tenant },
    );
    const archived = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { classIds: [period3] });
    expect(archived.status).toBe(400);
    expect(archived.body.fields['classIds.0']).toMatch(/archived/);
    const outside = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { studentIds: [p3[0]!.userId] });
    expect(outside.status).toBe(400);
    expect(outside.body.fields).toEqual({ 'studentIds.0': 'Not a student of the chosen classes' });
    const notUuid = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { classIds: ['period 3'] });
    expect(notUuid.status).toBe(400);
    expect(Object.keys(notUuid.body.fields)).toEqual(['classIds.0']);
    // Nothing was given to anyone by the refused calls.
    const view = (await call(h, teacher, 'GET', `/api/assessments/${id}`)).body;
    expect(view.status).toBe('draft');
    expect(view.assignedTo).toEqual([]);
    // Another teacher cannot assign it at all.
    expect((await call(h, stranger, 'POST', `/api/assessments/${id}/assign`, { classIds: [theirs] })).status).toBe(404);
  });
});

describe('chosen students', () => {
  it('when given to chosen students, then only they open, answer and list it; a student outside the group gets 404 and a later joiner nothing', async () => {
    const { period1, p1 } = await twoPeriods();
    const [chosen, left] = p1 as [Actor, Actor];
    const { id, questions } = await draftIn(period1);
    const assign = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { studentIds: [chosen.userId] });
    expect(assign.status, JSON.stringify(assign.body)).toBe(200);
    expect(assign.body.assignedCount).toBe(1);
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}`)).body.assignedTo).toEqual([
      { classId: period1, className: 'Biology P1', wholeClass: false, studentIds: [chosen.userId] },
    ]);

    expect(await opens(chosen, id)).toBe(200);
    expect((await available(chosen)).map((a) => a.id)).toContain(id);
    expect(await opens(left, id)).toBe(404);
    expect((await call(h, left, 'GET', `/api/assessments/${id}/questions`)).status).toBe(404);
    expect((await available(left)).map((a) => a.id)).not.toContain(id);
    const refused = await call(h, left, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '3/4',
    });
    expect(refused.status).toBe(404);
    expect((await call(h, left, 'POST', '/api/results', { assessmentId: id })).status).toBe(404);

    const late = actor('student', tenant);
    await enrol(h, period1, tenant, late);
    expect(await opens(late, id)).toBe(404);

    const event = (await outboxFor(h, id)).find((e) => e.type === 'AssessmentAssigned')!;
    expect(event.message).toMatchObject({ classId: period1, onlyChosen: true, studentIds: [chosen.userId] });

    // Choosing one more adds them; giving the class wholly reaches the late joiner too.
    await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { studentIds: [left.userId] });
    expect(await opens(left, id)).toBe(200);
    expect((await call(h, teacher, 'POST', `/api/assessments/${id}/assign`)).body.assignedCount).toBe(3);
    expect(await opens(late, id)).toBe(200);
  });

  it('across two classes, each class holds only its own chosen students', async () => {
    const { period1, period3, p1, p3 } = await twoPeriods();
    const { id } = await draftIn(period1);
    const assign = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, {
      classIds: [period1, period3],
      studentIds: [p1[0]!.userId, p3[1]!.userId],
    });
    expect(assign.body.assignedCount).toBe(2);
    expect(await opens(p1[0]!, id)).toBe(200);
    expect(await opens(p3[1]!, id)).toBe(200);
    expect(await opens(p1[1]!, id)).toBe(404);
    expect(await opens(p3[0]!, id)).toBe(404);
    const none = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, {
      classIds: [period1, period3],
      studentIds: [p1[1]!.userId],
    });
    expect(none.status).toBe(400);
    expect(none.body.fields).toEqual({ 'classIds.1': 'None of the chosen students is in this class' });
  });
});

describe('copying into another class', () => {
  it('makes a draft there with the questions, which later edits of the source never change', async () => {
    const { period1, period3 } = await twoPeriods();
    const { id, questions } = await draftIn(period1);
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { shuffleQuestions: true, timeLimitSeconds: 600 });
    const copy = await call(h, teacher, 'POST', `/api/assessments/${id}/copy`, { classId: period3 });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body).toMatchObject({
      classId: period3,
      className: 'Biology P3',
      title: VALID_CREATE.title,
      status: 'draft',
      generationStatus: 'ready',
      questionCount: 2,
      shuffleQuestions: true,
      timeLimitSeconds: 600,
    });
    const copyId = copy.body.id as string;
    await call(h, teacher, 'PUT', `/api/questions/${questions[1]!.id}`, { ...TF, questionText: 'Half of 10 is 5.' });
    const copied = (await call(h, teacher, 'GET', `/api/assessments/${copyId}/questions`)).body as {
      id: string;
      questionText: string;
    }[];
    expect(copied.map((q) => q.questionText)).toEqual([MC.questionText, TF.questionText]);
    expect(copied.map((q) => q.id)).not.toContain(questions[0]!.id);
    const created = (await outboxFor(h, copyId)).map((e) => e.type);
    expect(created).toEqual(['AssessmentCreated', 'QuestionsChanged']);

    const stranger = actor('teacher', tenant);
    const theirs = await givenClass(h, stranger, 'Chemistry');
    const refused = await call(h, teacher, 'POST', `/api/assessments/${id}/copy`, { classId: theirs });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ classId: 'Not one of your classes' });
    expect((await call(h, stranger, 'POST', `/api/assessments/${id}/copy`, { classId: theirs })).status).toBe(404);
  });
});

describe("a class's deletion", () => {
  it('when the own class of an assessment given to another class is deleted, then the other class becomes its own and keeps its results', async () => {
    const { period1, period3, p3 } = await twoPeriods();
    const { id, questions } = await draftIn(period1);
    await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, { classIds: [period1, period3] });
    const student = p3[0]!;
    const result = (await submitAnswers(h, student, id, { [questions[1]!.id]: 'true' })).id;

    await deliver(
      h,
      ClassDeletedSchema,
      { classId: period1, tenantId: tenant, teacherId: teacher.userId },
      { key: period1, tenantId: tenant },
    );
    const view = await call(h, teacher, 'GET', `/api/assessments/${id}`);
    expect(view.status).toBe(200);
    expect(view.body.classId).toBe(period3);
    expect(view.body.assignedTo.map((c: { classId: string }) => c.classId)).toEqual([period3]);
    expect((await call(h, student, 'GET', `/api/results/${result}`)).status).toBe(200);
    const updated = (await outboxFor(h, id)).filter((e) => e.type === 'AssessmentUpdated');
    expect(updated.at(-1)?.message.classId).toBe(period3);

    // An assessment of the deleted class alone goes with it.
    const { id: alone } = await draftIn(period3);
    await deliver(
      h,
      ClassDeletedSchema,
      { classId: period3, tenantId: tenant, teacherId: teacher.userId },
      { key: period3, tenantId: tenant },
    );
    expect((await call(h, teacher, 'GET', `/api/assessments/${alone}`)).status).toBe(404);
    expect((await outboxFor(h, alone)).map((e) => e.type)).toContain('AssessmentDeleted');
  });
});
