// Common assessments against real Postgres: a district admin writes one (questions aligned to the
// catalogue's standards), publishes it to chosen schools/grades/subjects, the teachers it reaches
// list it and assign it to their classes (a copy, assigned at once, questions locked), students
// take it as any assessment; who may do what.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassCreatedSchema, ClassUpdatedSchema, UserDeletedSchema } from '@checkpoint/events';
import {
  actor,
  call,
  deliver,
  enrol,
  MC,
  outboxFor,
  startAssessmentService,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
const district = randomUUID();
const admin = actor('admin', district);
const teacher = actor('teacher', district);
const otherSchoolTeacher = actor('teacher', district);
const student = actor('student', district);
const otherDistrictAdmin = actor('admin', randomUUID());
const ITEM = 'c0ffee00-0000-4000-8000-000000000001';

beforeAll(async () => {
  h = await startAssessmentService();
  const framework = randomUUID();
  await h.sql.query(
    `insert into standard_frameworks (id, tenant_id, document_identifier, title) values ($1, $2, 'doc-1', 'Math')`,
    [framework, district],
  );
  await h.sql.query(
    `insert into standard_items (id, framework_id, tenant_id, identifier, code, statement, uri)
     values ($1, $2, $3, $4, 'CCSS.Math.Content.6.RP.A.1', 'Understand ratios.', 'https://case.example/6.RP.A.1')`,
    [randomUUID(), framework, district, ITEM],
  );
});
afterAll(async () => {
  await h?.stop();
});

async function schoolClass(t: Actor, schoolId: string, grades: string[], subject = 'Math'): Promise<string> {
  const classId = randomUUID();
  await deliver(
    h,
    ClassCreatedSchema,
    {
      classId,
      tenantId: t.tenantId,
      teacherId: t.userId,
      name: `Class ${schoolId}`,
      subject,
      period: '1',
      joinCode: 'ABC123',
      schoolId,
      schoolName: `School ${schoolId}`,
      grades,
    },
    { key: classId, tenantId: t.tenantId },
  );
  return classId;
}

const TF = { questionText: '2:4 is the ratio 1:2', questionType: 'true_false', correctAnswer: 'true', points: 1 };
const draft = () => ({
  title: 'District benchmark: ratios',
  description: 'Grade 6, autumn',
  questions: [
    { ...MC, standards: [ITEM] },
    { ...TF, standards: [] },
  ],
});

async function published(targets: Record<string, string[]> = { schools: ['school-a'], grades: ['06'] }) {
  const created = await call(h, admin, 'POST', '/api/common-assessments', draft());
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const res = await call(h, admin, 'POST', `/api/common-assessments/${created.body.id}/publish`, targets);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return created.body.id as string;
}

describe('common assessments', () => {
  it('when an admin publishes to a school and grade, then its teacher lists it and assigns it, the student submits, and the copy is linked and announced', async () => {
    const classId = await schoolClass(teacher, 'school-a', ['06', '07']);
    await enrol(h, classId, district, student);
    const id = await published();

    const list = await call(h, teacher, 'GET', '/api/common-assessments');
    expect(list.status).toBe(200);
    expect(list.body.find((c: { id: string }) => c.id === id)).toMatchObject({
      status: 'published',
      classIds: [classId],
    });
    const detail = await call(h, teacher, 'GET', `/api/common-assessments/${id}`);
    expect(detail.body.questions[0].standards).toEqual([
      expect.objectContaining({ identifier: ITEM, code: 'CCSS.Math.Content.6.RP.A.1' }),
    ]);

    const assigned = await call(h, teacher, 'POST', `/api/common-assessments/${id}/assign`, { classId });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    expect(assigned.body).toMatchObject({
      classId,
      status: 'assigned',
      questionCount: 2,
      title: draft().title,
      commonAssessmentId: id,
    });
    const copyId = assigned.body.id as string;
    // The teacher's reads say it is the district's (the pages then offer no change of its questions).
    expect((await call(h, teacher, 'GET', `/api/assessments/${copyId}`)).body).toMatchObject({
      commonAssessmentId: id,
    });
    const listed = (await call(h, teacher, 'GET', `/api/classes/${classId}/assessments`)).body as { id: string }[];
    expect(listed.find((a) => a.id === copyId)).toMatchObject({ commonAssessmentId: id });
    const events = await outboxFor(h, copyId);
    expect(events.map((e) => e.type)).toEqual(['AssessmentCreated', 'QuestionsChanged', 'AssessmentAssigned']);
    expect(events[0]!.message).toMatchObject({ commonAssessmentId: id });
    const { rows } = await h.sql.query(
      `select qs.identifier from question_standards qs join questions q on q.id = qs.question_id where q.assessment_id = $1`,
      [copyId],
    );
    expect(rows).toEqual([{ identifier: ITEM }]);

    // Twice to the same class: refused.
    const again = await call(h, teacher, 'POST', `/api/common-assessments/${id}/assign`, { classId });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_assigned');

    // The student takes it as any assessment.
    const questions = await call(h, student, 'GET', `/api/assessments/${copyId}/questions`);
    expect(questions.status).toBe(200);
    for (const q of questions.body as { id: string; questionType: string }[])
      await call(h, student, 'POST', '/api/responses', {
        assessmentId: copyId,
        questionId: q.id,
        answer: q.questionType === 'true_false' ? 'true' : '3/4',
      });
    const submitted = await call(h, student, 'POST', '/api/results', { assessmentId: copyId });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    expect(Number(submitted.body.percentage)).toBe(100);
  });

  it('when a publication reaches a class, then its co-teacher lists it for that class and assigns it, and the owner sees the copy', async () => {
    const owner = actor('teacher', district);
    const co = actor('teacher', district);
    const classId = await schoolClass(owner, 'school-co', ['08']);
    const id = await published({ schools: ['school-co'], grades: ['08'] });
    expect((await call(h, co, 'GET', '/api/common-assessments')).body.find((c: { id: string }) => c.id === id)).toBe(
      undefined,
    );
    await deliver(
      h,
      ClassUpdatedSchema,
      {
        classId,
        tenantId: district,
        teacherId: owner.userId,
        name: 'Class school-co',
        subject: 'Math',
        period: '1',
        joinCode: 'ABC123',
        schoolId: 'school-co',
        schoolName: 'School school-co',
        grades: ['08'],
        coTeacherIds: [co.userId],
      },
      { key: classId, tenantId: district },
    );
    const list = await call(h, co, 'GET', '/api/common-assessments');
    expect(list.body.find((c: { id: string }) => c.id === id)).toMatchObject({ classIds: [classId] });
    expect((await call(h, co, 'GET', `/api/common-assessments/${id}`)).status).toBe(200);
    const assigned = await call(h, co, 'POST', `/api/common-assessments/${id}/assign`, { classId });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    const copyId = assigned.body.id as string;
    for (const who of [owner, co]) {
      const listed = (await call(h, who, 'GET', `/api/classes/${classId}/assessments`)).body as { id: string }[];
      expect(listed.map((a) => a.id)).toEqual([copyId]);
    }
    // The owner's other teachers are not reached through the class.
    const stranger = actor('teacher', district);
    expect(
      (await call(h, stranger, 'GET', '/api/common-assessments')).body.find((c: { id: string }) => c.id === id),
    ).toBe(undefined);
  });

  it('when a published common assessment is changed, then the admin is refused with 409, and the teacher cannot change the questions of their copy', async () => {
    const classId = await schoolClass(teacher, 'school-a', ['06']);
    const id = await published();
    const edit = await call(h, admin, 'PUT', `/api/common-assessments/${id}/questions`, { questions: [MC] });
    expect(edit.status).toBe(409);
    expect(edit.body.code).toBe('common_assessment_published');

    const copy = await call(h, teacher, 'POST', `/api/common-assessments/${id}/assign`, { classId });
    const copyId = copy.body.id as string;
    const [q] = (await call(h, teacher, 'GET', `/api/assessments/${copyId}/questions`)).body as { id: string }[];
    const refusals = [
      await call(h, teacher, 'PUT', `/api/questions/${q!.id}`, { ...MC, questionText: 'Changed' }),
      await call(h, teacher, 'POST', `/api/assessments/${copyId}/questions`, MC),
      await call(h, teacher, 'DELETE', `/api/questions/${q!.id}`),
      await call(h, teacher, 'POST', `/api/questions/${q!.id}/duplicate`),
    ];
    for (const r of refusals) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.code).toBe('common_assessment_locked');
    }
    const { rows } = await h.sql.query(
      'select question_text from questions where assessment_id = $1 order by position',
      [copyId],
    );
    expect(rows.map((r) => r.question_text)).toEqual([MC.questionText, TF.questionText]);
  });

  it('when the admin asks what a publication may name, then the district’s schools (by name), grades and subjects come back, and only to them', async () => {
    await schoolClass(teacher, 'school-t1', ['05', '06'], 'Science');
    await schoolClass(otherSchoolTeacher, 'school-t2', ['06'], 'Math');
    const res = await call(h, admin, 'GET', '/api/common-assessments/targets');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.schools).toEqual(
      expect.arrayContaining([
        { id: 'school-t1', name: 'School school-t1' },
        { id: 'school-t2', name: 'School school-t2' },
      ]),
    );
    expect(res.body.grades).toEqual(expect.arrayContaining(['05', '06']));
    expect(res.body.grades).toEqual([...new Set(res.body.grades as string[])].sort());
    expect(res.body.subjects).toEqual(expect.arrayContaining(['Math', 'Science']));
    expect((await call(h, teacher, 'GET', '/api/common-assessments/targets')).status).toBe(403);
    const elsewhere = await call(h, otherDistrictAdmin, 'GET', '/api/common-assessments/targets');
    expect(elsewhere.body).toEqual({ schools: [], grades: [], subjects: [] });
  });

  it('when a draft is changed, then its questions are replaced; when a standard is not in the catalogue, then 400 names it', async () => {
    const created = await call(h, admin, 'POST', '/api/common-assessments', draft());
    const replaced = await call(h, admin, 'PUT', `/api/common-assessments/${created.body.id}/questions`, {
      questions: [TF],
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toHaveLength(1);
    const bad = await call(h, admin, 'POST', '/api/common-assessments', {
      ...draft(),
      questions: [{ ...MC, standards: ['not-in-any-framework'] }],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('questions[0].standards[0]');
    const noQuestions = await call(h, admin, 'POST', '/api/common-assessments', { ...draft(), questions: [] });
    expect(noQuestions.status).toBe(400);
  });

  it('when a teacher has no class of the targeted school or grade, then they neither see it nor can assign it', async () => {
    const otherClass = await schoolClass(otherSchoolTeacher, 'school-b', ['06']);
    const wrongGrade = await schoolClass(otherSchoolTeacher, 'school-a', ['09']);
    const id = await published();
    const list = await call(h, otherSchoolTeacher, 'GET', '/api/common-assessments');
    expect(list.body.map((c: { id: string }) => c.id)).not.toContain(id);
    expect((await call(h, otherSchoolTeacher, 'GET', `/api/common-assessments/${id}`)).status).toBe(404);
    for (const classId of [otherClass, wrongGrade])
      expect(
        (await call(h, otherSchoolTeacher, 'POST', `/api/common-assessments/${id}/assign`, { classId })).status,
      ).toBe(404);
    // Published to every school (empty targets): now it reaches them.
    await call(h, admin, 'POST', `/api/common-assessments/${id}/publish`, { subjects: ['math'] });
    expect((await call(h, otherSchoolTeacher, 'GET', `/api/common-assessments/${id}`)).status).toBe(200);
  });

  it('when someone other than the district admin writes or publishes, or a teacher assigns to a class not theirs, then it is refused', async () => {
    expect((await call(h, teacher, 'POST', '/api/common-assessments', draft())).status).toBe(403);
    expect((await call(h, student, 'GET', '/api/common-assessments')).status).toBe(403);
    const id = await published({});
    expect((await call(h, teacher, 'POST', `/api/common-assessments/${id}/publish`, {})).status).toBe(403);
    expect((await call(h, otherDistrictAdmin, 'GET', `/api/common-assessments/${id}`)).status).toBe(404);
    expect((await call(h, otherDistrictAdmin, 'POST', `/api/common-assessments/${id}/publish`, {})).status).toBe(404);
    const notTheirs = await schoolClass(otherSchoolTeacher, 'school-a', ['06']);
    expect(
      (await call(h, teacher, 'POST', `/api/common-assessments/${id}/assign`, { classId: notTheirs })).status,
    ).toBe(404);
    // A draft is not published to anyone.
    const created = await call(h, admin, 'POST', '/api/common-assessments', draft());
    expect((await call(h, teacher, 'GET', `/api/common-assessments/${created.body.id}`)).status).toBe(404);
  });

  it('when the admin who wrote it is deleted, then the common assessment and the classes’ copies stay', async () => {
    const author = actor('admin', district);
    const classId = await schoolClass(teacher, 'school-a', ['06']);
    const created = await call(h, author, 'POST', '/api/common-assessments', draft());
    const id = created.body.id as string;
    await call(h, author, 'POST', `/api/common-assessments/${id}/publish`, {});
    const copy = await call(h, teacher, 'POST', `/api/common-assessments/${id}/assign`, { classId });
    expect(copy.status).toBe(201);
    await deliver(
      h,
      UserDeletedSchema,
      { userId: author.userId, tenantId: district },
      { key: author.userId, tenantId: district },
    );
    expect((await call(h, admin, 'GET', `/api/common-assessments/${id}`)).status).toBe(200);
    expect((await call(h, teacher, 'GET', `/api/assessments/${copy.body.id}`)).status).toBe(200);
  });
});
