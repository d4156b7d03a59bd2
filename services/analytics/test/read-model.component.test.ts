// Events in → API out, against real Postgres: the figures of a class's story worked out by hand
// (see classStory), redelivery changing nothing, a replay into an empty schema giving the same
// answers, and who may see what.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassArchivedSchema, ResultLevelRaisedSchema, UserDeletedSchema } from '@checkpoint/events';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { gatewayHeaders } from '@checkpoint/testkit';
import {
  actor,
  assessmentDeleted,
  event,
  figuresAndRecount,
  call,
  classStory,
  READ_MODEL_TABLES,
  startAnalyticsService,
  type Harness,
  type Story,
} from './helpers.ts';

let h: Harness;
let story: Story;

beforeAll(async () => {
  h = await startAnalyticsService();
  story = classStory();
  await h.bus.publish(story.events);
});
afterAll(() => h?.stop());

const admin = () => actor('admin', story.tenantId);

/** Every answer the story's teacher and admin can read, to compare before and after. */
async function everything(s: Story) {
  const paths = [
    `/api/classes/${s.classId}/results`,
    `/api/classes/${s.classId}/grid`,
    `/api/assessments/${s.assessmentId}/results`,
    '/api/all-results',
    '/api/dashboard/students',
    '/api/dashboard/usage',
    '/api/reports?timeframe=all&type=performance',
    '/api/reports?timeframe=all&type=progress',
    '/api/reports?timeframe=all&type=standards',
  ];
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const res = await call(h, s.teacher, 'GET', p);
    expect(res.status, p).toBe(200);
    out[p] = res.body;
  }
  const stats = await call(h, { ...s.teacher, role: 'admin', userId: randomUUID() }, 'GET', '/api/admin/stats');
  out.adminStats = stats.body;
  const { generatedAt: _a, ...report } = out['/api/reports?timeframe=all&type=performance'] as { generatedAt: string };
  out['/api/reports?timeframe=all&type=performance'] = report;
  for (const type of ['progress', 'standards']) {
    const { generatedAt: _b, ...r } = out[`/api/reports?timeframe=all&type=${type}`] as { generatedAt: string };
    out[`/api/reports?timeframe=all&type=${type}`] = r;
  }
  return out;
}

describe('results of a class, from events', () => {
  it('when three students submitted, then the class results list each with names, score and the server level, newest first', async () => {
    const res = await call(h, story.teacher, 'GET', `/api/classes/${story.classId}/results`);
    expect(res.status).toBe(200);
    expect(
      res.body.map((r: { student: { firstName: string }; score: number; performanceLevel: string }) => [
        r.student.firstName,
        r.score,
        r.performanceLevel,
      ]),
    ).toEqual([
      ['Cy', 0, 'at'],
      ['Ben', 67, 'below'],
      ['Ada', 100, 'above'],
    ]);
    expect(res.body[0]).toMatchObject({
      id: story.resultIds[2],
      // Cy's 0 % was raised by support practice: the score's own level stays next to it.
      performanceLevel: 'at',
      originalLevel: 'below',
      raisedBy: 'practice',
      classId: story.classId,
      className: 'Biology',
      earnedPoints: 0,
      totalPoints: 3,
      assessment: { title: 'Photosynthesis', topic: 'Plants', classId: story.classId },
    });
  });

  it('when the grid is read, then it has the members by last name, the assessment and one cell per result', async () => {
    const res = await call(h, story.teacher, 'GET', `/api/classes/${story.classId}/grid`);
    expect(res.status).toBe(200);
    expect(res.body.className).toBe('Biology');
    expect(res.body.students.map((s: { lastName: string }) => s.lastName)).toEqual(['Anders', 'Brook', 'Cole']);
    expect(res.body.assessments).toEqual([
      { id: story.assessmentId, title: 'Photosynthesis', createdAt: '2026-11-20T08:40:00.000Z' },
    ]);
    const cells = new Map(
      res.body.cells.map((c: { studentId: string; percentage: number; performanceLevel: string }) => [
        c.studentId,
        [c.percentage, c.performanceLevel],
      ]),
    );
    expect(cells.get(story.students[0]!.id)).toEqual([100, 'above']);
    expect(cells.get(story.students[1]!.id)).toEqual([66.67, 'below']);
    expect(cells.get(story.students[2]!.id)).toEqual([0, 'at']);
  });

  it('when the assessment results are read, then summary, answers, item statistics and distribution match the hand-worked figures', async () => {
    const res = await call(h, story.teacher, 'GET', `/api/assessments/${story.assessmentId}/results`);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.assessment).toMatchObject({ title: 'Photosynthesis', className: 'Biology', questionCount: 3 });
    expect(b.summary).toEqual({
      submitted: 3,
      classSize: 3,
      averageScore: 56,
      aboveStandard: 1,
      atStandard: 1,
      belowStandard: 1,
    });
    const cy = b.results.find((r: { studentId: string }) => r.studentId === story.students[2]!.id);
    expect(cy.practice).toEqual([{ type: 'support', attempts: 1, bestScore: 85 }]);
    expect(cy.answers).toHaveLength(3);
    const [q1, q2, q3] = b.questions;
    expect(q1).toMatchObject({ position: 1, answered: 3, correctCount: 2, discrimination: 1 });
    expect(q1.shareCorrect).toBeCloseTo(2 / 3);
    expect(q1.optionCounts).toEqual([
      { option: 'A', count: 0, shownTo: 3, correct: false },
      { option: 'B', count: 2, shownTo: 3, correct: true },
      { option: 'C', count: 1, shownTo: 3, correct: false },
      { option: 'D', count: 0, shownTo: 3, correct: false },
    ]);
    expect(q2.shareCorrect).toBeCloseTo(1 / 3);
    expect(q2.optionCounts).toEqual([
      { option: 'True', count: 1, shownTo: 3, correct: true },
      { option: 'False', count: 2, shownTo: 3, correct: false },
    ]);
    expect(q3.optionCounts).toEqual([
      { option: 'chlorophyll', count: 2, shownTo: 3, correct: true },
      { option: 'sugar', count: 1, shownTo: 3, correct: false },
    ]);
    expect(b.distribution.filter((d: { count: number }) => d.count > 0)).toEqual([
      { range: '0-9', count: 1 },
      { range: '60-69', count: 1 },
      { range: '90-100', count: 1 },
    ]);
  });

  it('when All Students is read, then averages fall in the 80/60 bands and each card has its newest results', async () => {
    const res = await call(h, story.teacher, 'GET', '/api/dashboard/students');
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({ totalStudents: 3, aboveStandard: 1, atStandard: 1, belowStandard: 1 });
    expect(
      res.body.students.map((s: { average: number; band: string; resultCount: number }) => [
        s.average,
        s.band,
        s.resultCount,
      ]),
    ).toEqual([
      [100, 'above', 1],
      [66.67, 'at', 1],
      [0, 'below', 1],
    ]);
    expect(res.body.students[0].classes).toEqual([{ id: story.classId, name: 'Biology', period: '3' }]);
    expect(res.body.students[0].results[0]).toMatchObject({ title: 'Photosynthesis', performanceLevel: 'above' });
    const filtered = await call(h, story.teacher, 'GET', `/api/dashboard/students?classId=${story.classId}&search=ben`);
    expect(filtered.body.total).toBe(1);
    expect(filtered.body.students[0].firstName).toBe('Ben');
  });

  it('when a report is generated, then its summary and table hold the results of the period, and the CSV the same rows', async () => {
    const res = await call(h, story.teacher, 'GET', '/api/reports?timeframe=all&type=performance');
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({
      totalResults: 3,
      studentsAssessed: 3,
      assessmentsGiven: 1,
      averageScore: 56,
      aboveStandard: 1,
      atStandard: 1,
      belowStandard: 1,
      abovePercent: 33,
      atPercent: 33,
      belowPercent: 33,
    });
    expect(res.body.rows).toEqual([
      { assessment: 'Photosynthesis', class: 'Biology - Period 3', results: 3, average: 56, above: 1, at: 1, below: 1 },
    ]);
    expect(res.body.recentResults).toHaveLength(3);
    // The story's results were submitted on Friday 2026-11-20: one monthly bar, by band.
    expect(res.body.levelsOverTime).toEqual([{ period: '2026-11-01', above: 1, at: 1, below: 1 }]);
    const detailed = await fetch(`${h.url}/api/reports/export?timeframe=all&type=detailed&format=csv`, {
      headers: await gatewayHeaders('analytics', story.teacher),
    });
    expect(detailed.headers.get('content-type')).toMatch(/text\/csv/);
    expect(detailed.headers.get('content-disposition')).toMatch(
      /attachment; filename="checkpoint-detailed-report-all-/,
    );
    const lines = (await detailed.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Student,Email,Assessment,Class,Score %,Performance Level,Level at Submission,Raised By,Submitted',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 1).concat(l.split(',').slice(4, 8)))).toEqual([
      ['Cy Cole', '0', 'At Standard', 'Below Standard', 'Support practice'],
      ['Ben Brook', '67', 'Below Standard', 'Below Standard', ''],
      ['Ada Anders', '100', 'Above Standard', 'Above Standard', ''],
    ]);
    const pdf = await fetch(`${h.url}/api/reports/export?timeframe=all&type=performance&format=pdf`, {
      headers: await gatewayHeaders('analytics', story.teacher),
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('when the admin of the district reads the stats, then they count the district’s people, classes, results and levels', async () => {
    const res = await call(h, admin(), 'GET', '/api/admin/stats');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalUsers: 4,
      totalTeachers: 1,
      totalStudents: 3,
      totalClasses: 1,
      totalAssessments: 1,
      totalResponses: 3,
      averageScore: 56,
      levels: { below: 1, at: 1, above: 1 },
    });
    expect(res.body.recentSignups.map((s: { name: string }) => s.name)).toEqual([
      'Cy Cole',
      'Ben Brook',
      'Ada Anders',
      'Tess Teach',
    ]);
  });
});

describe('one level per result (docs/adr/005)', () => {
  it('when practice raised results, then every view and export counts and names each result by its level, never by a band of its percentage', async () => {
    const s = classStory();
    // Ben's 67 % (below) is raised too: by level 1 above, 2 at, 0 below; by the 80/60 bands of the
    // percentages it would be 1, 1, 1.
    const ben = s.students[1]!;
    const raiseBen = event(
      ResultLevelRaisedSchema,
      {
        resultId: s.resultIds[1],
        assessmentId: s.assessmentId,
        tenantId: s.tenantId,
        classId: s.classId,
        studentId: ben.id,
        fromLevel: 'below',
        toLevel: 'at',
        occurredAt: timestampFromDate(new Date(Date.UTC(2026, 10, 20, 11, 30))),
        // Raised on the second try: shown with the raise so the teacher can judge it.
        practiceAttempt: 2,
      },
      s.assessmentId,
      s.tenantId,
    );
    await h.bus.publish([...s.events, raiseBen]);
    const get = async (path: string) => {
      const res = await call(h, s.teacher, 'GET', path);
      expect(res.status, path).toBe(200);
      return res.body;
    };
    const levels = { above: 1, at: 2, below: 0 };

    const report = await get('/api/reports?timeframe=all&type=performance');
    expect(report.summary).toMatchObject({ aboveStandard: 1, atStandard: 2, belowStandard: 0, averageScore: 56 });
    expect(report.summary).toMatchObject({ abovePercent: 33, atPercent: 67, belowPercent: 0 });
    expect(report.rows).toEqual([expect.objectContaining(levels)]);
    expect(report.levelsOverTime).toEqual([{ period: '2026-11-01', ...levels }]);
    expect((await get('/api/reports?timeframe=all&type=standards')).rows).toEqual([expect.objectContaining(levels)]);
    const assessment = await get(`/api/assessments/${s.assessmentId}/results`);
    expect(assessment.summary).toMatchObject({ aboveStandard: 1, atStandard: 2, belowStandard: 0 });

    const raised = { performanceLevel: 'at', originalLevel: 'below', raisedBy: 'practice', raisedAttempt: 2 };
    const grid = await get(`/api/classes/${s.classId}/grid`);
    const cellOf = (id: string) => grid.cells.find((c: { studentId: string }) => c.studentId === id);
    expect(cellOf(ben.id)).toMatchObject({ percentage: 66.67, ...raised });
    expect(cellOf(s.students[0]!.id)).toMatchObject({
      performanceLevel: 'above',
      originalLevel: 'above',
      raisedBy: null,
      raisedAttempt: null,
    });
    const benResult = assessment.results.find((r: { studentId: string }) => r.studentId === ben.id);
    expect(benResult).toMatchObject(raised);
    const students = await get('/api/dashboard/students');
    const benCard = students.students.find((x: { id: string }) => x.id === ben.id);
    // The card's band is of the average (80/60); its result keeps the result's level.
    expect(benCard).toMatchObject({ average: 66.67, band: 'at' });
    expect(benCard.results[0]).toMatchObject({ percentage: 66.67, ...raised });

    const progress = await get('/api/reports?timeframe=all&type=progress');
    expect(progress.columns.map((c: { label: string }) => c.label)).toEqual([
      'Student',
      'Email',
      'Results',
      'First %',
      'Latest %',
      'Latest Level',
      'Change',
      'Average %',
      'Average Band (80/60)',
    ]);
    expect(progress.rows.map((r: Record<string, unknown>) => [r.student, r.latest, r.latestLevel, r.band])).toEqual([
      ['Ada Anders', 100, 'Above Standard', 'Above (average 80% or more)'],
      ['Ben Brook', 67, 'At Standard (raised by practice, 2nd try)', 'At (average 60-79%)'],
      // Cy's raise came without the attempt (an event from before it was sent): the level alone.
      ['Cy Cole', 0, 'At Standard (raised by practice)', 'Below (average under 60%)'],
    ]);
    const detailed = await get('/api/reports?timeframe=all&type=detailed');
    const benRow = detailed.rows.find((r: { student: string }) => r.student === 'Ben Brook');
    expect(benRow).toMatchObject({ level: 'At Standard', originalLevel: 'Below Standard' });
    expect(benRow.raisedBy).toBe('Support practice (2nd try)');
    const pdf = await fetch(`${h.url}/api/reports/export?timeframe=all&type=progress&format=pdf`, {
      headers: await gatewayHeaders('analytics', s.teacher),
    });
    expect(pdf.status).toBe(200);
  });

  it('when there are no results, then no average is given (null), not 0 %', async () => {
    const s = classStory();
    // Only the class, its people and the assessment: no result events.
    await h.bus.publish(s.events.filter((e) => !e.headers.ce_type!.endsWith('.ResultSubmitted')));
    const report = (await call(h, s.teacher, 'GET', `/api/reports?classIds=${s.classId}&timeframe=all`)).body;
    expect(report.summary).toMatchObject({ totalResults: 0, averageScore: null });
    const page = (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`)).body;
    expect(page.summary).toMatchObject({ submitted: 0, averageScore: null });
  });
});

describe('who sees what', () => {
  it('when another teacher, an admin of another district or a student asks, then 404 or 403 and nothing leaks', async () => {
    const stranger = actor('teacher', story.tenantId);
    const foreignAdmin = actor('admin');
    const student = { userId: story.students[0]!.id, tenantId: story.tenantId, role: 'student' as const };
    const ids = [
      `/api/classes/${story.classId}/results`,
      `/api/classes/${story.classId}/grid`,
      `/api/assessments/${story.assessmentId}/results`,
      `/api/dashboard/students?classId=${story.classId}`,
      `/api/dashboard/live?classId=${story.classId}`,
      `/api/reports?classIds=${story.classId}`,
      `/api/reports/export?classIds=${story.classId}&format=csv`,
    ];
    for (const p of ids) {
      expect((await call(h, stranger, 'GET', p)).status, `teacher ${p}`).toBe(404);
      expect((await call(h, foreignAdmin, 'GET', p)).status, `foreign admin ${p}`).toBe(404);
    }
    for (const p of [
      ...ids,
      '/api/all-results',
      '/api/dashboard/students',
      '/api/dashboard/usage',
      '/api/admin/stats',
    ]) {
      expect((await call(h, student, 'GET', p)).status, `student ${p}`).toBe(403);
      expect((await call(h, undefined, 'GET', p)).status, `signed out ${p}`).toBe(401);
    }
    expect((await call(h, story.teacher, 'GET', '/api/admin/stats')).status).toBe(403);
    // Lists are scoped, not refused: the stranger's are empty.
    expect((await call(h, stranger, 'GET', '/api/all-results')).body).toEqual([]);
    expect((await call(h, stranger, 'GET', '/api/dashboard/students')).body.total).toBe(0);
    expect((await call(h, foreignAdmin, 'GET', '/api/admin/stats')).body.totalResponses).toBe(0);
    // The district admin sees the class.
    expect((await call(h, admin(), 'GET', `/api/classes/${story.classId}/grid`)).status).toBe(200);
  });

  it('when one teacher opens more live streams than a few tabs need, then the next is refused with 429 and another teacher is not', async () => {
    const open = async (who: typeof story.teacher) => {
      const ctl = new AbortController();
      const res = await fetch(`${h.url}/api/dashboard/live?classId=${story.classId}`, {
        headers: await gatewayHeaders('analytics', who),
        signal: ctl.signal,
      });
      return { res, close: () => ctl.abort() };
    };
    const held = [];
    try {
      // LIVE_MAX_STREAMS_PER_USER defaults to 8.
      for (let i = 0; i < 8; i++) held.push(await open(story.teacher));
      expect(held.map((x) => x.res.status)).toEqual(Array(8).fill(200));
      const ninth = await open(story.teacher);
      expect(ninth.res.status).toBe(429);
      expect(ninth.res.headers.get('retry-after')).toBeTruthy();
      expect(((await ninth.res.json()) as { message: string }).message).toMatch(
        /You have 8 live views open; close a tab/,
      );
      // The district admin (another user) still gets one.
      const other = await open(admin());
      expect(other.res.status).toBe(200);
      other.close();
      // A tab closed frees its place.
      held.shift()!.close();
      const again = await eventuallyStatus(() => open(story.teacher), 200);
      held.push(again);
      expect(again.res.status).toBe(200);
    } finally {
      for (const x of held) x.close();
    }
  });

  it('when ids or filters are malformed, then 404 for path ids and 400 naming the field for queries', async () => {
    expect((await call(h, story.teacher, 'GET', '/api/classes/not-a-uuid/results')).status).toBe(404);
    expect((await call(h, story.teacher, 'GET', '/api/assessments/nope/results')).status).toBe(404);
    const bad = await call(h, story.teacher, 'GET', '/api/reports?timeframe=decade');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['timeframe']);
    const badIds = await call(h, story.teacher, 'GET', '/api/reports?classIds=abc');
    expect(badIds.status).toBe(400);
    expect(Object.keys(badIds.body.fields)).toEqual(['classIds']);
    const badLimit = await call(h, story.teacher, 'GET', '/api/all-results?limit=0');
    expect(badLimit.status).toBe(400);
    expect(Object.keys(badLimit.body.fields)).toEqual(['limit']);
    expect((await call(h, story.teacher, 'GET', '/api/dashboard/students?sort=name')).status).toBe(400);
    const badClass = await call(h, story.teacher, 'GET', '/api/dashboard/students?classId=abc');
    expect(badClass.status).toBe(400);
    expect(badClass.body.fields).toEqual({ classId: 'Not a class id' });
    expect((await call(h, story.teacher, 'GET', '/api/dashboard/live?classId=abc')).status).toBe(400);
  });
});

describe('redelivery and replay', () => {
  it('when every event arrives a second time, then nothing changes', async () => {
    const before = await everything(story);
    await h.bus.publish(story.events);
    expect(await everything(story)).toEqual(before);
  });

  it('when the read models are emptied and the topics replayed from the start, then every answer is the same', async () => {
    const before = await everything(story);
    await h.sql.query(`truncate ${READ_MODEL_TABLES.join(', ')}`);
    expect((await call(h, story.teacher, 'GET', '/api/all-results')).body).toEqual([]);
    await h.bus.publish(story.events);
    expect(await everything(story)).toEqual(before);
  });

  it('when an event breaks the contract, then it is refused naming the field and the read model is untouched', async () => {
    const s = classStory();
    const broken = s.events.map((e) => ({ ...e }));
    await h.bus.publish(broken.slice(0, -5));
    const bad = classStory(s.tenantId).events.at(-5)!; // a ResultSubmitted of another class
    const { fromBinary, toBinary, ResultSubmittedSchema } = await import('@checkpoint/events');
    const message = fromBinary(ResultSubmittedSchema, bad.value);
    message.level = 'excellent';
    const poisoned = { ...bad, value: toBinary(ResultSubmittedSchema, message) };
    await h.bus.publish([poisoned]);
    expect(h.bus.deadLetters.at(-1)?.error).toMatch(/ResultSubmitted: level must be one of below, at, above/);
    const { rows } = await h.sql.query('select count(*)::int as n from results where result_id = $1', [
      message.resultId,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('when a student is deleted, then their data goes, and a result of theirs arriving later is dropped', async () => {
    const s = classStory();
    const [beforeDeletion, late] = [s.events.slice(0, -5), s.events.slice(-5)];
    await h.bus.publish(beforeDeletion);
    const ada = s.students[0]!;
    // The deletion and a result submitted just before it travel on different topics and are
    // handled at the same time; in either order the result does not survive.
    await h.bus.publish([
      event(UserDeletedSchema, { userId: ada.id, tenantId: s.tenantId }, ada.id, s.tenantId),
      ...late,
    ]);
    const results = (await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/results`)).body;
    expect(results.map((r: { studentId: string }) => r.studentId).sort()).toEqual(
      [s.students[1]!.id, s.students[2]!.id].sort(),
    );
    const grid = (await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/grid`)).body;
    expect(grid.students.map((x: { id: string }) => x.id)).not.toContain(ada.id);
    const stats = (await call(h, actor('admin', s.tenantId), 'GET', '/api/admin/stats')).body;
    expect(stats).toMatchObject({ totalStudents: 2, totalResponses: 2 });
    const { kept, recount } = await figuresAndRecount(h, s.tenantId);
    expect(kept).toEqual(recount);
  });

  it('when a class is archived, then its results leave the default lists but stay reachable by its id', async () => {
    const s = classStory();
    await h.bus.publish([
      ...s.events,
      event(
        ClassArchivedSchema,
        { classId: s.classId, tenantId: s.tenantId, teacherId: s.teacher.userId },
        s.classId,
        s.tenantId,
      ),
    ]);
    expect((await call(h, s.teacher, 'GET', '/api/all-results')).body).toEqual([]);
    expect((await call(h, s.teacher, 'GET', '/api/dashboard/students')).body.total).toBe(0);
    expect((await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/results`)).body).toHaveLength(3);
    const report = (await call(h, s.teacher, 'GET', `/api/reports?classIds=${s.classId}&timeframe=all`)).body;
    expect(report.summary.totalResults).toBe(3);
  });

  it('when an assessment is deleted, then its results leave every view and the district figures', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const adminOf = actor('admin', s.tenantId);
    expect((await call(h, adminOf, 'GET', '/api/admin/stats')).body.totalResponses).toBe(3);
    await h.bus.publish([assessmentDeleted(s)]);
    expect((await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/results`)).body).toEqual([]);
    expect((await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`)).status).toBe(404);
    const stats = (await call(h, adminOf, 'GET', '/api/admin/stats')).body;
    expect(stats).toMatchObject({
      totalResponses: 0,
      totalAssessments: 0,
      averageScore: 0,
      levels: { below: 0, at: 0, above: 0 },
    });
    const students = (await call(h, s.teacher, 'GET', '/api/dashboard/students')).body;
    expect(
      students.students.map((x: { resultCount: number; average: number | null }) => [x.resultCount, x.average]),
    ).toEqual([
      [0, null],
      [0, null],
      [0, null],
    ]);
  });
});

/** Opens until the answer has `status` (a closed stream is counted off when its socket closes). */
async function eventuallyStatus(
  open: () => Promise<{ res: Response; close: () => void }>,
  status: number,
): Promise<{ res: Response; close: () => void }> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const tried = await open();
    if (tried.res.status === status || Date.now() > deadline) return tried;
    tried.close();
    await new Promise((r) => setTimeout(r, 50));
  }
}
