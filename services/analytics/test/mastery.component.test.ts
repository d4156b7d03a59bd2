// Mastery of standards over time, events in → API out on real Postgres: evidence from aligned
// questions only, an assessment aligned to two standards, re-scoring when the alignment changes,
// redelivery, the heatmap, a student's trend, the district view with small groups suppressed, the
// CSVs, who may call each route, and deletion (student, assessment, district, retention).
import { randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssessmentCreatedSchema,
  ClassCreatedSchema,
  QuestionsChangedSchema,
  ResultLevelRaisedSchema,
  ResultSubmittedSchema,
  StudentEnrolledSchema,
  TenantDeletedSchema,
  UserDeletedSchema,
  UserRegisteredSchema,
  type BusMessage,
} from '@checkpoint/events';
import { createLogger, RetentionJob } from '@checkpoint/service-kit';
import { gatewayHeaders } from '@checkpoint/testkit';
import { analyticsPrivacy } from '../src/messaging/privacy.consumer.ts';
import {
  actor,
  assessmentDeleted,
  call,
  csvExport,
  event,
  eventually,
  startAnalyticsService,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startAnalyticsService();
});
afterAll(() => h?.stop());

const S1 = {
  identifier: 'c0a8e0a2-0001-4000-8000-000000000001',
  code: 'CCSS.Math.Content.6.RP.A.1',
  uri: 'https://case.example/1',
  frameworkId: 'f1',
};
const S2 = {
  identifier: 'c0a8e0a2-0001-4000-8000-000000000002',
  code: 'CCSS.Math.Content.6.RP.A.2',
  uri: 'https://case.example/2',
  frameworkId: 'f1',
};
const at = (day: number) => timestampFromDate(new Date(Date.UTC(2026, 9, day, 12)));

interface Q {
  id: string;
  points: number;
  standards: (typeof S1)[];
}

/** A district's class story, told as identity, class and assessment would. */
function district(tenantId = randomUUID()) {
  const events: BusMessage[] = [];
  const person = (role: 'teacher' | 'student' | 'admin', firstName: string): Actor => {
    const a = actor(role, tenantId);
    events.push(
      event(
        UserRegisteredSchema,
        {
          userId: a.userId,
          tenantId,
          email: `${firstName.toLowerCase()}-${a.userId.slice(0, 6)}@example.test`,
          firstName,
          lastName: 'Test',
          role,
          tenantKind: 'district',
          occurredAt: at(1),
        },
        a.userId,
        tenantId,
      ),
    );
    return a;
  };
  const klass = (teacher: Actor, name: string, students: Actor[], school = { schoolId: '', schoolName: '' }) => {
    const classId = randomUUID();
    events.push(
      event(
        ClassCreatedSchema,
        {
          classId,
          tenantId,
          teacherId: teacher.userId,
          name,
          subject: 'Maths',
          period: '1',
          joinCode: 'X',
          ...school,
          occurredAt: at(2),
        },
        classId,
        tenantId,
      ),
      ...students.map((s) =>
        event(
          StudentEnrolledSchema,
          { classId, tenantId, studentId: s.userId, membershipId: randomUUID(), occurredAt: at(3) },
          classId,
          tenantId,
        ),
      ),
    );
    return classId;
  };
  const questionsChanged = (assessmentId: string, classId: string, questions: Q[]) =>
    event(
      QuestionsChangedSchema,
      {
        assessmentId,
        tenantId,
        classId,
        questions: questions.map((q) => ({
          questionId: q.id,
          questionText: 'Q',
          questionType: 'multiple_choice',
          options: ['A', 'B'],
          correctAnswer: 'A',
          points: q.points,
          standards: q.standards,
        })),
        occurredAt: at(4),
      },
      assessmentId,
      tenantId,
    );
  const assessment = (teacher: Actor, classId: string, title: string, questions: Q[]) => {
    const assessmentId = randomUUID();
    events.push(
      event(
        AssessmentCreatedSchema,
        { assessmentId, tenantId, classId, teacherId: teacher.userId, title, isActive: true, occurredAt: at(4) },
        assessmentId,
        tenantId,
      ),
      questionsChanged(assessmentId, classId, questions),
    );
    return { assessmentId, classId, questions };
  };
  const result = (
    a: { assessmentId: string; classId: string; questions: Q[] },
    student: Actor,
    correct: boolean[],
    day: number,
  ) => {
    const resultId = randomUUID();
    const total = a.questions.reduce((n, q) => n + q.points, 0);
    const earned = a.questions.reduce((n, q, i) => n + (correct[i] ? q.points : 0), 0);
    const percentage = (earned / total) * 100;
    events.push(
      event(
        ResultSubmittedSchema,
        {
          resultId,
          assessmentId: a.assessmentId,
          tenantId,
          classId: a.classId,
          studentId: student.userId,
          earnedPoints: earned,
          totalPoints: total,
          percentage,
          level: percentage >= 90 ? 'above' : percentage >= 80 ? 'at' : 'below',
          answers: a.questions.map((q, i) => ({
            questionId: q.id,
            answer: correct[i] ? 'A' : 'B',
            correct: correct[i],
          })),
          submittedAt: at(day),
        },
        a.assessmentId,
        tenantId,
      ),
    );
    return resultId;
  };
  return { tenantId, events, person, klass, assessment, result, questionsChanged };
}

/**
 * Ada, Ben, Cy in one class. A1 (day 10): q1 1 pt → S1; q2 2 pts → S1 and S2; q3 1 pt unaligned.
 *   Ada all right: S1 3/3 = 100, S2 2/2 = 100.  Ben q1 and q3: S1 1/3 = 33.33, S2 0.  Cy q2: S1 2/3 = 66.67, S2 100.
 * A2 (day 20): q4 1 pt → S1.  Ada wrong: S1 0.65·0 + 0.35·100 = 35.  Ben right: 0.65·100 + 0.35·33.33 = 76.67.
 */
function story() {
  const d = district();
  const teacher = d.person('teacher', 'Tess');
  const admin = d.person('admin', 'Abe');
  const [ada, ben, cy] = ['Ada', 'Ben', 'Cy'].map((n) => d.person('student', n)) as [Actor, Actor, Actor];
  const classId = d.klass(teacher, 'Ratios', [ada, ben, cy]);
  const q = { q1: randomUUID(), q2: randomUUID(), q3: randomUUID(), q4: randomUUID() };
  const a1 = d.assessment(teacher, classId, 'Ratios quiz', [
    { id: q.q1, points: 1, standards: [S1] },
    { id: q.q2, points: 2, standards: [S1, S2] },
    { id: q.q3, points: 1, standards: [] },
  ]);
  const r = {
    ada1: d.result(a1, ada, [true, true, true], 10),
    ben1: d.result(a1, ben, [true, false, true], 10),
    cy1: d.result(a1, cy, [false, true, false], 10),
  };
  const a2 = d.assessment(teacher, classId, 'Rates check', [{ id: q.q4, points: 1, standards: [S1] }]);
  d.result(a2, ada, [false], 20);
  d.result(a2, ben, [true], 20);
  return { ...d, teacher, admin, ada, ben, cy, classId, q, a1, a2, r };
}

const cellsOf = (
  rows: { studentId: string; standards: { code: string; score: number; level: string; evidenceCount: number }[] }[],
  id: string,
) =>
  Object.fromEntries(
    rows.find((r) => r.studentId === id)!.standards.map((s) => [s.code.slice(-6), [s.score, s.level, s.evidenceCount]]),
  );

/** The class figures next to a recount from student_mastery. */
async function figuresAndRecount(classId: string) {
  const kept = await h.sql.query(
    `select identifier, students, round(score_sum::numeric, 6)::float8 as sum, below, at, above
       from class_mastery_figures where class_id = $1 order by identifier`,
    [classId],
  );
  const recount = await h.sql.query(
    `select identifier, count(*)::int as students, round(sum(score)::numeric, 6)::float8 as sum,
            count(*) filter (where level = 'below')::int as below, count(*) filter (where level = 'at')::int as at,
            count(*) filter (where level = 'above')::int as above
       from student_mastery where class_id = $1 group by identifier order by identifier`,
    [classId],
  );
  // The district's per-standard sums equal the sums of its classes' figures.
  const { rows: districtKept } = await h.sql.query(
    `select d.identifier, d.students, round(d.score_sum::numeric, 6)::float8 as sum, d.below, d.at, d.above
       from standard_mastery_figures d
      where d.tenant_id = (select tenant_id from classes where class_id = $1) order by identifier`,
    [classId],
  );
  const { rows: districtRecount } = await h.sql.query(
    `select identifier, sum(students)::int as students, round(sum(score_sum)::numeric, 6)::float8 as sum,
            sum(below)::int as below, sum(at)::int as at, sum(above)::int as above
       from class_mastery_figures where tenant_id = (select tenant_id from classes where class_id = $1)
      group by identifier order by identifier`,
    [classId],
  );
  expect(districtKept).toEqual(districtRecount);
  return { kept: kept.rows, recount: recount.rows };
}

describe('mastery of standards from events', () => {
  it('when results of aligned assessments arrive, then the heatmap shows each student’s decaying average per standard, unaligned questions not counted', async () => {
    const s = story();
    await h.bus.publish(s.events);
    const res = await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { studentName: string }) => r.studentName)).toEqual(['Ada Test', 'Ben Test', 'Cy Test']);
    expect(cellsOf(res.body, s.ada.userId)).toEqual({ 'RP.A.1': [35, 'below', 2], 'RP.A.2': [100, 'above', 1] });
    expect(cellsOf(res.body, s.ben.userId)).toEqual({ 'RP.A.1': [76.67, 'below', 2], 'RP.A.2': [0, 'below', 1] });
    expect(cellsOf(res.body, s.cy.userId)).toEqual({ 'RP.A.1': [66.67, 'below', 1], 'RP.A.2': [100, 'above', 1] });
    expect(res.body[0].standards[0]).toEqual({
      identifier: S1.identifier,
      code: S1.code,
      level: 'below',
      evidenceCount: 2,
      score: 35,
    });
    const { kept, recount } = await figuresAndRecount(s.classId);
    expect(kept).toEqual(recount);
    expect(kept).toHaveLength(2);
  });

  it('when the same events are delivered again (new ids) and a level is raised by practice, then nothing moves', async () => {
    const s = story();
    await h.bus.publish(s.events);
    const before = (await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`)).body;
    const again = s.events.map((m) => ({ ...m, headers: { ...m.headers, ce_id: randomUUID() } }));
    await h.bus.publish([
      ...again,
      event(
        ResultLevelRaisedSchema,
        {
          resultId: s.r.ben1,
          assessmentId: s.a1.assessmentId,
          tenantId: s.tenantId,
          classId: s.classId,
          studentId: s.ben.userId,
          fromLevel: 'below',
          toLevel: 'at',
          occurredAt: at(11),
        },
        s.a1.assessmentId,
        s.tenantId,
      ),
    ]);
    expect((await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`)).body).toEqual(before);
    const { kept, recount } = await figuresAndRecount(s.classId);
    expect(kept).toEqual(recount);
  });

  it('when a question’s alignment and points are edited after the results, then the evidence is scored again', async () => {
    const s = story();
    await h.bus.publish(s.events);
    // q2 no longer on S2, q3 (2 pts now) on S2: Ada 2/2 = 100, Ben 2/2 = 100, Cy 0/2 = 0; S1 only q1 and q2 as before.
    await h.bus.publish([
      s.questionsChanged(s.a1.assessmentId, s.classId, [
        { id: s.q.q1, points: 1, standards: [S1] },
        { id: s.q.q2, points: 2, standards: [S1] },
        { id: s.q.q3, points: 2, standards: [S2] },
      ]),
    ]);
    const res = await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`);
    expect(cellsOf(res.body, s.ben.userId)).toEqual({ 'RP.A.1': [76.67, 'below', 2], 'RP.A.2': [100, 'above', 1] });
    expect(cellsOf(res.body, s.cy.userId)).toEqual({ 'RP.A.1': [66.67, 'below', 1], 'RP.A.2': [0, 'below', 1] });
    // All alignment removed from A2: Ada's S1 is her A1 score alone again.
    await h.bus.publish([s.questionsChanged(s.a2.assessmentId, s.classId, [{ id: s.q.q4, points: 1, standards: [] }])]);
    const after = await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`);
    expect(cellsOf(after.body, s.ada.userId)['RP.A.1']).toEqual([100, 'above', 1]);
    const { kept, recount } = await figuresAndRecount(s.classId);
    expect(kept).toEqual(recount);
  });

  it('when a student reads their standards, then each has its trend across assessments, oldest first', async () => {
    const s = story();
    await h.bus.publish(s.events);
    const res = await call(h, s.ada, 'GET', `/api/mastery/students/${s.ada.userId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        identifier: S1.identifier,
        code: S1.code,
        level: 'below',
        score: 35,
        evidenceCount: 2,
        trend: [
          {
            assessmentId: s.a1.assessmentId,
            title: 'Ratios quiz',
            submittedAt: '2026-10-10T12:00:00.000Z',
            score: 100,
          },
          { assessmentId: s.a2.assessmentId, title: 'Rates check', submittedAt: '2026-10-20T12:00:00.000Z', score: 0 },
        ],
      },
      {
        identifier: S2.identifier,
        code: S2.code,
        level: 'above',
        score: 100,
        evidenceCount: 1,
        trend: [
          {
            assessmentId: s.a1.assessmentId,
            title: 'Ratios quiz',
            submittedAt: '2026-10-10T12:00:00.000Z',
            score: 100,
          },
        ],
      },
    ]);
    // Their teacher and district admin see the same; the Ben trend 33.33 → 100.
    expect((await call(h, s.teacher, 'GET', `/api/mastery/students/${s.ada.userId}`)).body).toEqual(res.body);
    expect((await call(h, s.admin, 'GET', `/api/mastery/students/${s.ada.userId}`)).body).toEqual(res.body);
    const ben = await call(h, s.teacher, 'GET', `/api/mastery/students/${s.ben.userId}`);
    expect(ben.body[0].trend.map((t: { score: number }) => t.score)).toEqual([33.33, 100]);
  });

  it('when the class heatmap is exported, then the CSV has one row per student and standard', async () => {
    const s = story();
    await h.bus.publish(s.events);
    const res = await fetch(`${h.url}/api/classes/${s.classId}/mastery/export`, {
      headers: await gatewayHeaders('analytics', s.teacher, '127.0.0.1'),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('Student,Student ID,Standard,Standard identifier,Level,Score,Evidence');
    expect(lines).toHaveLength(7);
    expect(lines[1]).toBe(`Ada Test,${s.ada.userId},${S1.code},${S1.identifier},Below,35,2`);
  });
});

describe('the standards of one assessment’s results page', () => {
  /**
   * Ada, Ben, Cy; one assessment: q1 4 pts → S1; q2 1 pt → S1 and S2; q3 4 pts → S2; q4 1 pt → S2; q5 unaligned.
   *   S1 (q1, q2: 5 pts): Ada 5/5 = 100 above, Ben q1 4/5 = 80 at, Cy q2 1/5 = 20 below → average 66.67.
   *   S2 (q2–q4: 6 pts): Ada 6/6 = 100 above, Ben q3 4/6 = 66.67 below, Cy q2 1/6 = 16.67 below → average 61.11.
   * A second assessment aligned to S1 that nobody has taken, and a third with no aligned question.
   */
  function pageStory() {
    const d = district();
    const teacher = d.person('teacher', 'Tess');
    const admin = d.person('admin', 'Abe');
    const [ada, ben, cy] = ['Ada', 'Ben', 'Cy'].map((n) => d.person('student', n)) as [Actor, Actor, Actor];
    const classId = d.klass(teacher, 'Ratios', [ada, ben, cy]);
    const pts = (points: number, standards: (typeof S1)[]) => ({ id: randomUUID(), points, standards });
    const taken = d.assessment(teacher, classId, 'Ratios quiz', [
      pts(4, [S1]),
      pts(1, [S1, S2]),
      pts(4, [S2]),
      pts(1, [S2]),
      pts(1, []),
    ]);
    d.result(taken, ada, [true, true, true, true, true], 10);
    d.result(taken, ben, [true, false, true, false, false], 10);
    d.result(taken, cy, [false, true, false, false, true], 10);
    const untaken = d.assessment(teacher, classId, 'Rates check', [pts(1, [S1])]);
    const unaligned = d.assessment(teacher, classId, 'Warm-up', [pts(1, [])]);
    d.result(unaligned, ada, [true], 11);
    return { ...d, teacher, admin, taken, untaken, unaligned };
  }

  /** One standard's entry: its aligned questions, students, average and students below, at, above. */
  const entry = (
    std: typeof S1,
    questionCount: number,
    students: number,
    averagePercentage: number | null,
    [below, at, above]: number[],
  ) => ({
    identifier: std.identifier,
    code: std.code,
    uri: std.uri,
    questionCount,
    students,
    averagePercentage,
    levels: { below, at, above },
  });

  it('when the results of an assessment aligned to two standards are read, then each standard has its questions, students, average and students by level', async () => {
    const s = pageStory();
    await h.bus.publish(s.events);
    const res = await call(h, s.teacher, 'GET', `/api/assessments/${s.taken.assessmentId}/results`);
    expect(res.status).toBe(200);
    expect(res.body.standards).toEqual([entry(S1, 2, 3, 66.67, [1, 1, 1]), entry(S2, 3, 3, 61.11, [2, 0, 1])]);
    // The existing figures are as before: the whole score, not a standard's.
    expect(res.body.summary).toMatchObject({ submitted: 3, aboveStandard: 1, atStandard: 0, belowStandard: 2 });
    const byAdmin = await call(h, s.admin, 'GET', `/api/assessments/${s.taken.assessmentId}/results`);
    expect(byAdmin.body.standards).toEqual(res.body.standards);
  });

  it('when an assessment has aligned questions but no submissions, or no aligned question, then its standards say so', async () => {
    const s = pageStory();
    await h.bus.publish(s.events);
    const untaken = await call(h, s.teacher, 'GET', `/api/assessments/${s.untaken.assessmentId}/results`);
    expect(untaken.status).toBe(200);
    expect(untaken.body.standards).toEqual([entry(S1, 1, 0, null, [0, 0, 0])]);
    const unaligned = await call(h, s.teacher, 'GET', `/api/assessments/${s.unaligned.assessmentId}/results`);
    expect(unaligned.status).toBe(200);
    expect(unaligned.body.summary.submitted).toBe(1);
    expect(unaligned.body.standards).toEqual([]);
  });
});

describe('the district’s standards', () => {
  /** Classes of 3, 5 and 6 students on S1 (one assessment each; student i scores right when i is even). */
  function districtStory() {
    const d = district();
    const admin = d.person('admin', 'Abe');
    const classes = [3, 5, 6].map((n, c) => {
      const teacher = d.person('teacher', `T${c}`);
      const students = Array.from({ length: n }, (_, i) => d.person('student', `S${c}x${i}`));
      const classId = d.klass(teacher, `Class ${c}`, students);
      const a = d.assessment(teacher, classId, `Quiz ${c}`, [{ id: randomUUID(), points: 1, standards: [S1] }]);
      students.forEach((st, i) => d.result(a, st, [i % 2 === 0], 10));
      return { classId, teacher, n };
    });
    return { ...d, admin, classes };
  }

  it('when a class has fewer than 5 students, then it is suppressed, and so is the next smallest (the total would give it away)', async () => {
    const s = districtStory();
    await h.bus.publish(s.events);
    const res = await call(h, s.admin, 'GET', '/api/mastery/district');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [std] = res.body;
    // 14 students: 2 + 3 + 3 = 8 with 100, 6 with 0 → average 57.14.
    expect(std).toMatchObject({
      identifier: S1.identifier,
      code: S1.code,
      suppressed: false,
      students: 14,
      score: 57.14,
      level: 'below',
      below: 6,
      at: 0,
      above: 8,
    });
    expect(std.classes).toEqual([
      {
        classId: s.classes[0]!.classId,
        className: 'Class 0',
        period: '1',
        teacherName: 'T0 Test',
        schoolId: '',
        schoolName: '',
        suppressed: true,
      },
      {
        classId: s.classes[1]!.classId,
        className: 'Class 1',
        period: '1',
        teacherName: 'T1 Test',
        schoolId: '',
        schoolName: '',
        suppressed: true,
      },
      {
        classId: s.classes[2]!.classId,
        className: 'Class 2',
        period: '1',
        teacherName: 'T2 Test',
        schoolId: '',
        schoolName: '',
        suppressed: false,
        students: 6,
        score: 50,
        level: 'below',
        below: 3,
        at: 0,
        above: 3,
      },
    ]);
    expect(res.headers.get('x-total-count')).toBe('1');
    // One standard by its identifier; a page past the end is empty.
    const one = await call(h, s.admin, 'GET', `/api/mastery/district?identifier=${S1.identifier}`);
    expect(one.body).toEqual(res.body);
    expect((await call(h, s.admin, 'GET', `/api/mastery/district?identifier=${S2.identifier}`)).body).toEqual([]);
    expect((await call(h, s.admin, 'GET', '/api/mastery/district?offset=1')).body).toEqual([]);
    expect((await call(h, s.admin, 'GET', '/api/mastery/district?limit=0')).status).toBe(400);
    // Another district's admin sees none of it.
    expect((await call(h, actor('admin'), 'GET', '/api/mastery/district')).body).toEqual([]);
  });

  it('when rostered classes name their schools, then each standard has its schools, a small one suppressed with the next smallest and their classes', async () => {
    const d = district();
    const admin = d.person('admin', 'Abe');
    const north = { schoolId: 'sch-n', schoolName: 'North Middle' };
    const south = { schoolId: 'sch-s', schoolName: 'South Middle' };
    const east = { schoolId: 'sch-e', schoolName: 'East Middle' };
    // North: 3 students; South: 6; East: 10 (all right).
    [
      [3, north],
      [6, south],
      [10, east],
    ].forEach(([n, school], c) => {
      const teacher = d.person('teacher', `T${c}`);
      const students = Array.from({ length: n as number }, (_, i) => d.person('student', `S${c}x${i}`));
      const classId = d.klass(teacher, `Class ${c}`, students, school as typeof north);
      const a = d.assessment(teacher, classId, `Quiz ${c}`, [{ id: randomUUID(), points: 1, standards: [S1] }]);
      students.forEach((st) => d.result(a, st, [true], 10));
    });
    await h.bus.publish(d.events);
    const [std] = (await call(h, admin, 'GET', '/api/mastery/district')).body;
    expect(std).toMatchObject({ suppressed: false, students: 19, score: 100 });
    expect(std.schools).toEqual([
      { ...east, suppressed: false, students: 10, score: 100, level: 'above', below: 0, at: 0, above: 10 },
      { ...north, suppressed: true },
      { ...south, suppressed: true },
    ]);
    // A hidden school's classes are hidden too: they would add up to it.
    expect(std.classes.map((c: { schoolName: string; suppressed: boolean }) => [c.schoolName, c.suppressed])).toEqual([
      ['North Middle', true],
      ['South Middle', true],
      ['East Middle', false],
    ]);
  });

  it('when the district view is exported, then suppressed groups have no figures in the CSV', async () => {
    const s = districtStory();
    await h.bus.publish(s.events);
    const res = await fetch(`${h.url}/api/mastery/district/export`, {
      headers: await gatewayHeaders('analytics', s.admin, '127.0.0.1'),
    });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(
      'Standard,Standard identifier,School,Class,Teacher,Students,Average mastery,Level,Below,At,Above,Suppressed (fewer than 5 students)',
    );
    expect(lines.slice(1)).toEqual([
      `${S1.code},${S1.identifier},All schools,All classes,,14,57.14,Below,6,0,8,no`,
      `${S1.code},${S1.identifier},No school known,All classes,,14,57.14,Below,6,0,8,no`,
      `${S1.code},${S1.identifier},No school known,Class 0 - Period 1,T0 Test,,,,,,,yes`,
      `${S1.code},${S1.identifier},No school known,Class 1 - Period 1,T1 Test,,,,,,,yes`,
      `${S1.code},${S1.identifier},No school known,Class 2 - Period 1,T2 Test,6,50,Below,3,0,3,no`,
    ]);
  });
});

describe('a student’s standards as CSV', () => {
  const studentCsv = (studentId: string, who: Actor) => csvExport(h, `/api/mastery/students/${studentId}/export`, who);
  const HEADER =
    'Student,Student ID,Standard,Standard identifier,Level,Mastery,Evidence,Assessment,Submitted at,Score on the standard';

  it('when a student’s standards are exported, then each standard has a row per piece of evidence, oldest first, for the student, their teacher and their admin', async () => {
    const s = story();
    await h.bus.publish(s.events);
    const { res, bom, lines } = await studentCsv(s.ada.userId, s.ada);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="checkpoint-student-standards.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(bom).toBe(true);
    // Ada: S1 35 (A1 100, A2 0), S2 100 (A1 100); see story().
    const ada = `Ada Test,${s.ada.userId}`;
    expect(lines).toEqual([
      HEADER,
      `${ada},${S1.code},${S1.identifier},Below,35,2,Ratios quiz,2026-10-10T12:00:00.000Z,100`,
      `${ada},${S1.code},${S1.identifier},Below,35,2,Rates check,2026-10-20T12:00:00.000Z,0`,
      `${ada},${S2.code},${S2.identifier},Above,100,1,Ratios quiz,2026-10-10T12:00:00.000Z,100`,
    ]);
    expect((await studentCsv(s.ada.userId, s.teacher)).lines).toEqual(lines);
    expect((await studentCsv(s.ada.userId, s.admin)).lines).toEqual(lines);
    // Ben: S1 76.67 (A1 33.33, A2 100), S2 0 (A1 0).
    const ben = `Ben Test,${s.ben.userId}`;
    expect((await studentCsv(s.ben.userId, s.teacher)).lines).toEqual([
      HEADER,
      `${ben},${S1.code},${S1.identifier},Below,76.67,2,Ratios quiz,2026-10-10T12:00:00.000Z,33.33`,
      `${ben},${S1.code},${S1.identifier},Below,76.67,2,Rates check,2026-10-20T12:00:00.000Z,100`,
      `${ben},${S2.code},${S2.identifier},Below,0,1,Ratios quiz,2026-10-10T12:00:00.000Z,0`,
    ]);
  });

  it('when an assessment’s title looks like a formula, then the CSV cell is escaped so no spreadsheet runs it', async () => {
    const d = district();
    const teacher = d.person('teacher', 'Tess');
    const student = d.person('student', 'Dee');
    const classId = d.klass(teacher, 'Ratios', [student]);
    const a = d.assessment(teacher, classId, '=HYPERLINK("https://evil.example","Click")', [
      { id: randomUUID(), points: 1, standards: [S1] },
    ]);
    d.result(a, student, [true], 10);
    await h.bus.publish(d.events);
    const { lines } = await studentCsv(student.userId, student);
    expect(lines).toEqual([
      HEADER,
      `Dee Test,${student.userId},${S1.code},${S1.identifier},Above,100,1,` +
        `"'=HYPERLINK(""https://evil.example"",""Click"")",2026-10-10T12:00:00.000Z,100`,
    ]);
  });

  it('when a student has no evidence yet, then the CSV has the header only', async () => {
    const d = district();
    const student = d.person('student', 'Eve');
    await h.bus.publish(d.events);
    const { res, lines } = await studentCsv(student.userId, student);
    expect(res.status).toBe(200);
    expect(lines).toEqual([HEADER]);
  });
});

describe('who may read mastery', () => {
  it('when each route is called by each kind of caller, then only the allowed ones get 200 (others 403 or 404)', async () => {
    const s = story();
    await h.bus.publish(s.events);
    const otherTeacher = actor('teacher', s.tenantId);
    const foreignAdmin = actor('admin');
    const foreignTeacher = actor('teacher');
    const cases: [string, Actor | undefined, number][] = [
      [`/api/classes/${s.classId}/mastery`, s.teacher, 200],
      [`/api/classes/${s.classId}/mastery`, s.admin, 200],
      [`/api/classes/${s.classId}/mastery`, otherTeacher, 404],
      [`/api/classes/${s.classId}/mastery`, foreignAdmin, 404],
      [`/api/classes/${s.classId}/mastery`, s.ada, 403],
      [`/api/classes/${s.classId}/mastery`, undefined, 401],
      [`/api/classes/not-a-uuid/mastery`, s.teacher, 404],
      [`/api/classes/${s.classId}/mastery/export`, s.teacher, 200],
      [`/api/classes/${s.classId}/mastery/export`, s.admin, 200],
      [`/api/classes/${s.classId}/mastery/export`, otherTeacher, 404],
      [`/api/classes/${s.classId}/mastery/export`, foreignTeacher, 404],
      [`/api/classes/${s.classId}/mastery/export`, s.ada, 403],
      [`/api/mastery/students/${s.ada.userId}`, s.ada, 200],
      [`/api/mastery/students/${s.ada.userId}`, s.teacher, 200],
      [`/api/mastery/students/${s.ada.userId}`, s.admin, 200],
      [`/api/mastery/students/${s.ada.userId}`, s.ben, 404],
      [`/api/mastery/students/${s.ada.userId}`, otherTeacher, 404],
      [`/api/mastery/students/${s.ada.userId}`, foreignAdmin, 404],
      [`/api/mastery/students/${s.ada.userId}`, undefined, 401],
      ['/api/mastery/students/nope', s.teacher, 404],
      [`/api/mastery/students/${s.ada.userId}/export`, s.ada, 200],
      [`/api/mastery/students/${s.ada.userId}/export`, s.teacher, 200],
      [`/api/mastery/students/${s.ada.userId}/export`, s.admin, 200],
      [`/api/mastery/students/${s.ada.userId}/export`, s.ben, 404],
      [`/api/mastery/students/${s.ada.userId}/export`, otherTeacher, 404],
      [`/api/mastery/students/${s.ada.userId}/export`, foreignAdmin, 404],
      [`/api/mastery/students/${s.ada.userId}/export`, foreignTeacher, 404],
      [`/api/mastery/students/${s.ada.userId}/export`, undefined, 401],
      ['/api/mastery/students/nope/export', s.ada, 404],
      ['/api/mastery/district', s.admin, 200],
      ['/api/mastery/district', s.teacher, 403],
      ['/api/mastery/district', s.ada, 403],
      ['/api/mastery/district', undefined, 401],
      ['/api/mastery/district/export', s.admin, 200],
      ['/api/mastery/district/export', s.teacher, 403],
      ['/api/mastery/district/export', s.ada, 403],
    ];
    for (const [path, who, status] of cases) {
      // The exports answer CSV: only the status is read.
      const res = await fetch(h.url + path, { headers: await gatewayHeaders('analytics', who, '127.0.0.1') });
      expect(res.status, `${who?.role ?? 'signed out'} ${path}`).toBe(status);
    }
  });
});

describe('mastery and privacy', () => {
  const own = `select (select count(*) from mastery_evidence where student_id = $1)
                    + (select count(*) from student_mastery where student_id = $1) as n`;

  it('when a student is deleted, then their evidence and mastery go and the class figures equal a recount', async () => {
    const s = story();
    await h.bus.publish(s.events);
    expect(Number((await h.sql.query(own, [s.ben.userId])).rows[0].n)).toBe(5);
    await h.bus.publish([
      event(
        UserDeletedSchema,
        { userId: s.ben.userId, tenantId: s.tenantId, requestId: randomUUID() },
        s.ben.userId,
        s.tenantId,
      ),
    ]);
    expect(
      Number(
        await eventually(
          async () => (await h.sql.query(own, [s.ben.userId])).rows[0].n,
          (n) => Number(n) === 0,
        ),
      ),
    ).toBe(0);
    const { kept, recount } = await figuresAndRecount(s.classId);
    expect(kept).toEqual(recount);
    expect(kept.map((k) => k.students)).toEqual([2, 2]);
  });

  it('when an assessment is deleted, then its evidence goes and mastery falls back on what is left', async () => {
    const s = story();
    await h.bus.publish(s.events);
    await h.bus.publish([assessmentDeleted({ ...s, assessmentId: s.a2.assessmentId } as never)]);
    const res = await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`);
    expect(cellsOf(res.body, s.ada.userId)['RP.A.1']).toEqual([100, 'above', 1]);
    const { kept, recount } = await figuresAndRecount(s.classId);
    expect(kept).toEqual(recount);
  });

  it('when retention runs, then evidence older than the period goes with its results', async () => {
    const s = story();
    await h.bus.publish(s.events);
    await h.sql.query('insert into privacy_retention (tenant_id, retention_days) values ($1, 30)', [s.tenantId]);
    // Nov 15 less 30 days is Oct 16: A1's results (Oct 10) are past it, A2's (Oct 20) are not.
    const job = new RetentionJob(h.sql, analyticsPrivacy, {
      intervalMs: 1000,
      logger: createLogger('test', 'silent'),
      now: () => new Date(Date.UTC(2026, 10, 15)),
      tenantsSql: `select tenant_id, retention_days from privacy_retention where tenant_id = '${s.tenantId}'`,
    });
    expect(await job.runIfDue()).toBeGreaterThan(0);
    const res = await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`);
    expect(cellsOf(res.body, s.ada.userId)).toEqual({ 'RP.A.1': [0, 'below', 1] });
    expect(cellsOf(res.body, s.cy.userId)).toEqual({});
    const { kept, recount } = await figuresAndRecount(s.classId);
    expect(kept).toEqual(recount);
  });

  it('when a district is deleted, then none of its evidence, mastery or figures is left', async () => {
    const s = story();
    await h.bus.publish(s.events);
    await h.bus.publish([
      event(
        TenantDeletedSchema,
        {
          tenantId: s.tenantId,
          requestId: randomUUID(),
          userIds: [s.teacher.userId, s.admin.userId, s.ada.userId, s.ben.userId, s.cy.userId],
        },
        s.tenantId,
        s.tenantId,
      ),
    ]);
    const left = await eventually(
      async () =>
        (
          await h.sql.query(
            `select (select count(*) from mastery_evidence where tenant_id = $1) + (select count(*) from student_mastery where tenant_id = $1)
                  + (select count(*) from class_mastery_figures where tenant_id = $1) as n`,
            [s.tenantId],
          )
        ).rows[0].n,
      (n) => Number(n) === 0,
    );
    expect(Number(left)).toBe(0);
  });
});
