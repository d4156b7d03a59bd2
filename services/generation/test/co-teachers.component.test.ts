// Co-teachers (issue 30, item 8): a teacher of the assessment's class, owner or co-teacher (the
// class events' co_teacher_ids), reads its generation state, practice (with keys), a student's
// practice and recommendations; once ClassUpdated no longer names them, nothing, even an
// assessment they created. A teacher of a class the assessment is given to from another class
// (AssessmentAssigned) reads its support material and recommendations written from the results
// of the classes they teach only.
import { randomUUID } from 'node:crypto';
import { AssessmentAssignedSchema, ClassUpdatedSchema } from '@checkpoint/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actor,
  call,
  createAssessment,
  deliver,
  enrol,
  storeQuestions,
  startGenerationService,
  submitResult,
  type Actor,
  type Harness,
  type Lesson,
} from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startGenerationService();
});
afterAll(async () => {
  await h?.stop();
});

const QUESTIONS = [
  {
    questionText: 'Which gas do plants release?',
    questionType: 'multiple_choice',
    options: ['oxygen', 'nitrogen', 'helium', 'argon'],
    correctAnswer: 'oxygen',
  },
  {
    questionText: 'True or False: Chlorophyll reflects green light.',
    questionType: 'true_false',
    options: ['True', 'False'],
    correctAnswer: 'True',
  },
];

const classTeachers = (l: Lesson, owner: Actor, coTeacherIds: string[]) =>
  deliver(
    h,
    ClassUpdatedSchema,
    {
      classId: l.classId,
      tenantId: owner.tenantId,
      teacherId: owner.userId,
      name: 'Biology',
      subject: 'Science',
      period: '1',
      joinCode: 'ABC123',
      coTeacherIds,
    },
    l.classId,
    owner.tenantId,
  );

describe('a co-teacher of the class', () => {
  it('reads generation, practice with keys, a student practice and recommendations; after removal, none', async () => {
    const tenant = randomUUID();
    const owner = actor('teacher', tenant);
    const co = actor('teacher', tenant);
    const l = await createAssessment(h, { teacher: owner, generation: false });
    const questions = await storeQuestions(h, l, QUESTIONS);
    const student = actor('student', tenant);
    await enrol(h, l, student);
    const resultId = await submitResult(h, l, student, questions, [false, true]);

    const reads = [
      `/api/assessments/${l.assessmentId}/support-material/support`,
      `/api/support-content/${resultId}`,
      `/api/assessments/${l.assessmentId}/recommendations/support`,
    ];
    for (const path of reads) expect((await call(h, co, 'GET', path)).status, path).toBe(404);

    await classTeachers(l, owner, [co.userId]);
    for (const path of reads) expect((await call(h, co, 'GET', path)).status, path).toBe(200);
    const material = await call(h, co, 'GET', reads[0]!);
    expect(material.body.questions[0]).toHaveProperty('correctAnswer');
    // The owner still reads them (the class event names them as its owner).
    expect((await call(h, owner, 'GET', reads[0]!)).status).toBe(200);

    // An assessment the co-teacher created: theirs while they teach the class.
    const theirs = await createAssessment(h, { teacher: co });
    await deliver(
      h,
      ClassUpdatedSchema,
      {
        classId: theirs.classId,
        tenantId: owner.tenantId,
        teacherId: owner.userId,
        name: 'Biology',
        subject: 'Science',
        period: '1',
        joinCode: 'ABC123',
        coTeacherIds: [co.userId],
      },
      theirs.classId,
      owner.tenantId,
    );
    expect((await call(h, co, 'GET', `/api/assessments/${theirs.assessmentId}/generation`)).status).toBe(200);
    expect((await call(h, owner, 'GET', `/api/assessments/${theirs.assessmentId}/generation`)).status).toBe(200);

    await classTeachers(l, owner, []);
    for (const path of reads) expect((await call(h, co, 'GET', path)).status, path).toBe(404);
    await classTeachers(theirs, owner, []);
    expect((await call(h, co, 'GET', `/api/assessments/${theirs.assessmentId}/generation`)).status).toBe(404);
  });

  it("reads a result taken in the class of an assessment given to it from another of the owner's classes, not the other class's", async () => {
    const tenant = randomUUID();
    const owner = actor('teacher', tenant);
    const co = actor('teacher', tenant);
    const l = await createAssessment(h, { teacher: owner, generation: false });
    const questions = await storeQuestions(h, l, QUESTIONS);
    const coTaught = { ...l, classId: randomUUID() };
    await classTeachers(l, owner, []);
    await classTeachers(coTaught, owner, [co.userId]);
    const [inHome, inCoTaught] = [actor('student', tenant), actor('student', tenant)];
    await enrol(h, l, inHome);
    await enrol(h, coTaught, inCoTaught);
    const homeResult = await submitResult(h, l, inHome, questions, [false, true]);
    const coTaughtResult = await submitResult(h, coTaught, inCoTaught, questions, [false, true]);

    expect((await call(h, co, 'GET', `/api/support-content/${coTaughtResult}`)).status).toBe(200);
    expect((await call(h, co, 'GET', `/api/support-content/${homeResult}`)).status).toBe(404);
    expect((await call(h, owner, 'GET', `/api/support-content/${coTaughtResult}`)).status).toBe(200);
    await classTeachers(coTaught, owner, []);
    expect((await call(h, co, 'GET', `/api/support-content/${coTaughtResult}`)).status).toBe(404);
  });
});

const assigned = (l: Lesson, classId: string) =>
  deliver(
    h,
    AssessmentAssignedSchema,
    { assessmentId: l.assessmentId, tenantId: l.tenantId, classId, onlyChosen: false, studentIds: [] },
    l.assessmentId,
    l.tenantId,
  );

describe('a teacher of a class the assessment is given to from another class', () => {
  it("reads its support material and recommendations from their classes' results only; others get 404", async () => {
    const tenant = randomUUID();
    const owner = actor('teacher', tenant);
    const co = actor('teacher', tenant);
    const otherTeacher = actor('teacher', tenant);
    const l = await createAssessment(h, { teacher: owner, generation: false });
    const questions = await storeQuestions(h, l, QUESTIONS);
    const given = { ...l, classId: randomUUID() };
    const notGiven = { ...l, classId: randomUUID() };
    await classTeachers(l, owner, []);
    await classTeachers(given, owner, [co.userId]);
    // A class `otherTeacher` co-teaches with the owner, to which this assessment is not given.
    await classTeachers(notGiven, owner, [otherTeacher.userId]);
    await assigned(l, l.classId);

    const [home1, home2, inGiven] = [actor('student', tenant), actor('student', tenant), actor('student', tenant)];
    await enrol(h, l, home1);
    await enrol(h, l, home2);
    await enrol(h, given, inGiven);
    await submitResult(h, l, home1, questions, [false, false]); // 0: below
    await submitResult(h, l, home2, questions, [false, true]); // 50: below
    await submitResult(h, given, inGiven, questions, [true, true]); // 100: above

    const material = `/api/assessments/${l.assessmentId}/support-material/support`;
    const recommendation = `/api/assessments/${l.assessmentId}/recommendations/support`;
    // Not yet given to their class: nothing.
    for (const path of [material, recommendation]) expect((await call(h, co, 'GET', path)).status, path).toBe(404);
    expect((await call(h, inGiven, 'GET', material)).status).toBe(404);

    await assigned(l, given.classId);
    const read = await call(h, co, 'GET', material);
    expect(read.status).toBe(200);
    expect(read.body.questions[0]).toHaveProperty('correctAnswer');
    // Their student, who submitted it, reads it too (without the keys).
    const asStudent = await call(h, inGiven, 'GET', material);
    expect(asStudent.status).toBe(200);
    expect(asStudent.body.questions[0]).not.toHaveProperty('correctAnswer');

    // Theirs: written from the one result taken in their class.
    const theirs = await call(h, co, 'GET', recommendation);
    expect(theirs.status).toBe(200);
    expect(theirs.body.summary).toMatchObject({ total: 1, below: 0, at: 0, above: 1, averagePercent: 100 });
    // The owner's: every result, as before; each keeps its own (a read of one leaves the other).
    const owners = await call(h, owner, 'GET', recommendation);
    expect(owners.body.summary).toMatchObject({ total: 3, below: 2, at: 0, above: 1, averagePercent: 50 });
    expect(owners.body.text).not.toEqual(theirs.body.text);
    const again = await call(h, co, 'GET', recommendation);
    expect(again.body).toMatchObject({ text: theirs.body.text, generatedAt: theirs.body.generatedAt });
    expect(again.body.summary.total).toBe(1);
    const enrichment = await call(h, co, 'GET', `/api/assessments/${l.assessmentId}/recommendations/enrichment`);
    expect(enrichment.status).toBe(200);
    expect(enrichment.body.summary).toMatchObject({ total: 1, above: 1 });
    expect((await call(h, owner, 'GET', recommendation)).body.summary.total).toBe(3);

    // A teacher of a class it is not given to, a teacher of no class of it, another tenant's: 404.
    for (const stranger of [otherTeacher, actor('teacher', tenant), actor('teacher')])
      for (const path of [material, recommendation])
        expect((await call(h, stranger, 'GET', path)).status, path).toBe(404);

    // No longer teaching that class: nothing.
    await classTeachers(given, owner, []);
    for (const path of [material, recommendation]) expect((await call(h, co, 'GET', path)).status, path).toBe(404);
  });
});
