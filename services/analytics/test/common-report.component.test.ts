// The roll-up of a common assessment (GET /api/common-assessments/{id}/report) from the events:
// classes with their school, each class's copy (AssessmentCreated.common_assessment_id), the
// copies' questions with their standards, the results. Hand-computed figures; groups of fewer
// than 5 students who submitted are suppressed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssessmentCreatedSchema,
  ClassCreatedSchema,
  QuestionsChangedSchema,
  ResultSubmittedSchema,
  StudentEnrolledSchema,
} from '@checkpoint/events';
import { actor, call, csvExport, event, startAnalyticsService, type Actor, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startAnalyticsService();
});
afterAll(async () => {
  await h?.stop();
});

const STD = { identifier: 'c0ffee00-0000-4000-8000-000000000001', code: 'CCSS.Math.Content.6.RP.A.1', uri: '' };

/**
 * A class of `school` given the copy of `commonId`: two 1-point questions, the first aligned to STD;
 * `scores[i]` = [first right, second right] for student i, each of whom submits.
 */
async function classWithResults(
  tenantId: string,
  commonId: string,
  school: string,
  scores: [boolean | 'pending', boolean][],
  title = 'Ratios benchmark',
) {
  const teacherId = randomUUID();
  const classId = randomUUID();
  const assessmentId = randomUUID();
  const q = [randomUUID(), randomUUID()];
  const students = scores.map(() => randomUUID());
  await h.bus.publish([
    event(
      ClassCreatedSchema,
      {
        classId,
        tenantId,
        teacherId,
        name: `Math ${school}`,
        subject: 'Math',
        joinCode: 'X',
        schoolId: school,
        schoolName: `School ${school}`,
        grades: ['06'],
      },
      classId,
      tenantId,
    ),
    ...students.map((studentId) =>
      event(StudentEnrolledSchema, { classId, tenantId, studentId, membershipId: randomUUID() }, classId, tenantId),
    ),
    event(
      AssessmentCreatedSchema,
      {
        assessmentId,
        tenantId,
        classId,
        teacherId,
        title,
        isActive: true,
        commonAssessmentId: commonId,
      },
      assessmentId,
      tenantId,
    ),
    event(
      QuestionsChangedSchema,
      {
        assessmentId,
        tenantId,
        classId,
        questions: [
          {
            questionId: q[0],
            questionText: '1',
            questionType: 'true_false',
            correctAnswer: 'true',
            points: 1,
            standards: [STD],
          },
          { questionId: q[1], questionText: '2', questionType: 'true_false', correctAnswer: 'true', points: 1 },
        ],
      },
      assessmentId,
      tenantId,
    ),
    ...students.map((studentId, i) => {
      // 'pending': the aligned answer waits for the teacher's review (earns nothing yet).
      const [a, b] = scores[i]!;
      const earned = Number(a === true) + Number(b);
      return event(
        ResultSubmittedSchema,
        {
          resultId: randomUUID(),
          assessmentId,
          tenantId,
          classId,
          studentId,
          earnedPoints: earned,
          totalPoints: 2,
          percentage: earned * 50,
          level: earned === 2 ? 'above' : 'below',
          answers: [
            { questionId: q[0], answer: a ? 'true' : 'false', correct: a === true, pending: a === 'pending' },
            { questionId: q[1], answer: b ? 'true' : 'false', correct: b },
          ],
        },
        assessmentId,
        tenantId,
      );
    }),
  ]);
  return classId;
}

// School A: 6 students: 3 with both right (100 %), 3 with only the aligned one right (50 %).
const SCHOOL_A: [boolean, boolean][] = [
  [true, true],
  [true, true],
  [true, true],
  [true, false],
  [true, false],
  [true, false],
];
// School B: 2 students (suppressed): both wrong on the aligned one.
const SCHOOL_B: [boolean, boolean][] = [
  [false, true],
  [false, false],
];
// Five students, all right: just enough to be shown.
const ALL_RIGHT: [boolean, boolean][] = Array.from({ length: 5 }, () => [true, true]);

describe('common assessment report', () => {
  it('when classes of three schools submitted, then the district, each school and class have their figures, a group of fewer than 5 is suppressed, and so is the next smallest (the district less the others would give it away)', async () => {
    const tenantId = randomUUID();
    const commonId = randomUUID();
    const big = await classWithResults(tenantId, commonId, 'A', SCHOOL_A);
    const small = await classWithResults(tenantId, commonId, 'B', SCHOOL_B);
    const five = await classWithResults(tenantId, commonId, 'C', ALL_RIGHT);
    const admin = actor('admin', tenantId);
    const res = await call(h, admin, 'GET', `/api/common-assessments/${commonId}/report`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // District: 13 submitted; (3×100 + 3×50 + 50 + 0 + 5×100) / 13 = 76.9; aligned: 11×100 + 2×0 over 13 = 84.6.
    expect(res.body).toMatchObject({
      title: 'Ratios benchmark',
      district: {
        suppressed: false,
        students: 13,
        submitted: 13,
        averagePercentage: 76.9,
        levels: { below: 5, at: 0, above: 8 },
        standards: [
          { identifier: STD.identifier, code: STD.code, suppressed: false, students: 13, averagePercentage: 84.6 },
        ],
      },
    });
    const [a, b, c] = res.body.schools;
    expect(a).toMatchObject({
      schoolId: 'A',
      schoolName: 'School A',
      suppressed: false,
      submitted: 6,
      averagePercentage: 75,
    });
    expect(a.classes).toEqual([expect.objectContaining({ classId: big, suppressed: false, students: 6 })]);
    expect(a.standards[0]).toMatchObject({ averagePercentage: 100, students: 6 });
    expect(b).toEqual({
      schoolId: 'B',
      schoolName: 'School B',
      suppressed: true,
      classes: [{ classId: small, className: 'Math B', suppressed: true }],
    });
    // School C has 5, enough on its own; shown, the district less A and C would be B's 2 students.
    expect(c).toEqual({
      schoolId: 'C',
      schoolName: 'School C',
      suppressed: true,
      classes: [{ classId: five, className: 'Math C', suppressed: true }],
    });
  });

  it('when an aligned answer waits for review, then it is left out of the standard until marked, not counted as wrong', async () => {
    const tenantId = randomUUID();
    const commonId = randomUUID();
    await classWithResults(tenantId, commonId, 'A', [...ALL_RIGHT, ['pending', true]]);
    const res = await call(h, actor('admin', tenantId), 'GET', `/api/common-assessments/${commonId}/report`);
    expect(res.body.district).toMatchObject({
      submitted: 6,
      standards: [{ identifier: STD.identifier, suppressed: false, students: 5, averagePercentage: 100 }],
    });
  });

  it('when a teacher, a student, or another district’s admin asks, then they are refused or see nothing of it', async () => {
    const tenantId = randomUUID();
    const commonId = randomUUID();
    await classWithResults(tenantId, commonId, 'A', ALL_RIGHT);
    expect(
      (await call(h, actor('teacher', tenantId), 'GET', `/api/common-assessments/${commonId}/report`)).status,
    ).toBe(403);
    expect(
      (await call(h, actor('student', tenantId), 'GET', `/api/common-assessments/${commonId}/report`)).status,
    ).toBe(403);
    const other = await call(h, actor('admin', randomUUID()), 'GET', `/api/common-assessments/${commonId}/report`);
    expect(other.body).toMatchObject({ title: '', district: { suppressed: true }, schools: [] });
    const own = await call(h, actor('admin', tenantId), 'GET', `/api/common-assessments/${commonId}/report`);
    expect(own.body.district).toMatchObject({ suppressed: false, submitted: 5, averagePercentage: 100 });
  });
});

describe('common assessment report as CSV', () => {
  const reportCsv = (commonId: string, who: Actor | undefined) =>
    csvExport(h, `/api/common-assessments/${commonId}/report/export`, who);
  const HEADER =
    'Assessment,Group,School,Class,Standard,Standard identifier,Students,Submitted,Average %,Below,At,Above,Suppressed (fewer than 5 students)';

  it('when the report is exported, then each group and each of its standards is a line, a group of fewer than 5 has empty figures, and a formula-looking title is escaped', async () => {
    const tenantId = randomUUID();
    const commonId = randomUUID();
    const title = '=HYPERLINK("https://evil.example","Click")';
    await classWithResults(tenantId, commonId, 'A', SCHOOL_A, title);
    await classWithResults(tenantId, commonId, 'B', SCHOOL_B, title);
    await classWithResults(tenantId, commonId, 'C', ALL_RIGHT, title);
    const { res, bom, lines } = await reportCsv(commonId, actor('admin', tenantId));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="checkpoint-common-assessment-report.csv"',
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(bom).toBe(true);
    const t = `"'=HYPERLINK(""https://evil.example"",""Click"")"`;
    // As the JSON (the test above): the district 13 submitted, 76.9 %, 5 below and 8 above, 84.6 on STD;
    // school A and its class: (3×100 + 3×50) / 6 = 75, 3 below, 3 above, 100 on STD; B (2) and C
    // (the next smallest) suppressed with their classes.
    expect(lines).toEqual([
      HEADER,
      `${t},District,All schools,All classes,All questions,,13,13,76.9,5,0,8,no`,
      `${t},District,All schools,All classes,${STD.code},${STD.identifier},13,,84.6,,,,no`,
      `${t},School,School A,All classes,All questions,,6,6,75,3,0,3,no`,
      `${t},School,School A,All classes,${STD.code},${STD.identifier},6,,100,,,,no`,
      `${t},Class,School A,Math A,All questions,,6,6,75,3,0,3,no`,
      `${t},Class,School A,Math A,${STD.code},${STD.identifier},6,,100,,,,no`,
      `${t},School,School B,All classes,All questions,,,,,,,,yes`,
      `${t},Class,School B,Math B,All questions,,,,,,,,yes`,
      `${t},School,School C,All classes,All questions,,,,,,,,yes`,
      `${t},Class,School C,Math C,All questions,,,,,,,,yes`,
    ]);
  });

  it('when a teacher, a student, another district’s admin or a malformed id asks, then they are refused or get nothing of it', async () => {
    const tenantId = randomUUID();
    const commonId = randomUUID();
    await classWithResults(tenantId, commonId, 'A', ALL_RIGHT);
    expect((await reportCsv(commonId, actor('teacher', tenantId))).res.status).toBe(403);
    expect((await reportCsv(commonId, actor('student', tenantId))).res.status).toBe(403);
    expect((await reportCsv(commonId, undefined)).res.status).toBe(401);
    expect((await reportCsv('not-a-uuid', actor('admin', tenantId))).res.status).toBe(404);
    // Another district's admin reads none of district A's copies: the district line only, suppressed (as the JSON).
    const other = await reportCsv(commonId, actor('admin', randomUUID()));
    expect(other.res.status).toBe(200);
    expect(other.lines).toEqual([HEADER, ',District,All schools,All classes,All questions,,,,,,,,yes']);
    const own = await reportCsv(commonId, actor('admin', tenantId));
    expect(own.lines[1]).toBe('Ratios benchmark,District,All schools,All classes,All questions,,5,5,100,0,0,5,no');
  });
});
