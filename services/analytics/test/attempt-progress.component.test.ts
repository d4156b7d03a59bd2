// Live progress (AttemptProgressed → GET /api/assessments/{id}/progress, the grid and the live
// stream), against real Postgres: counts only, the newest count standing, the result ending the
// attempt, and only the class's teacher and the district admin seeing it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AttemptProgressedSchema, UserDeletedSchema, type BusMessage } from '@checkpoint/events';
import { gatewayHeaders } from '@checkpoint/testkit';
import {
  actor,
  assessmentDeleted,
  call,
  classStory,
  event,
  startAnalyticsService,
  type Harness,
  type Story,
} from './helpers.ts';

let h: Harness;
let story: Story;
/** The story's results, held back: published by the tests, one student at a time. */
let results: BusMessage[];

const typeOf = (m: BusMessage) => String(m.headers['ce_type'] ?? '');

function progressed(s: Story, student: number, answered: number, minute: number): BusMessage {
  return event(
    AttemptProgressedSchema,
    {
      assessmentId: s.assessmentId,
      tenantId: s.tenantId,
      classId: s.classId,
      studentId: s.students[student]!.id,
      answeredCount: answered,
      questionCount: 3,
      startedAt: timestampFromDate(new Date(Date.UTC(2026, 10, 20, 11, 0))),
      occurredAt: timestampFromDate(new Date(Date.UTC(2026, 10, 20, 11, minute))),
    },
    s.assessmentId,
    s.tenantId,
  );
}

const progressOf = async (who = story.teacher) =>
  call(h, who, 'GET', `/api/assessments/${story.assessmentId}/progress`);

beforeAll(async () => {
  h = await startAnalyticsService();
  story = classStory();
  results = story.events.filter((m) => typeOf(m).endsWith('.ResultSubmitted'));
  // Everything up to the questions: nobody has submitted yet.
  await h.bus.publish(
    story.events.filter((m) =>
      /\.(UserRegistered|ClassCreated|StudentEnrolled|AssessmentCreated|QuestionsChanged)$/.test(typeOf(m)),
    ),
  );
});
afterAll(() => h?.stop());

describe('live progress of an assessment', () => {
  it('when nobody has answered yet, then every student is not started and the grid has no progress', async () => {
    const res = await progressOf();
    expect(res.body).toMatchObject({
      assessmentId: story.assessmentId,
      classId: story.classId,
      questionCount: 3,
      counts: { notStarted: 3, inProgress: 0, submitted: 0 },
    });
    expect(res.body.students.map((s: { firstName: string; status: string }) => [s.firstName, s.status])).toEqual([
      ['Ada', 'not_started'],
      ['Ben', 'not_started'],
      ['Cy', 'not_started'],
    ]);
    expect((await call(h, story.teacher, 'GET', `/api/classes/${story.classId}/grid`)).body.inProgress).toEqual([]);
  });

  it('when two students have saved answers, then each shows how many are answered, newest count standing, and no answer or score', async () => {
    await h.bus.publish([progressed(story, 0, 1, 1), progressed(story, 0, 2, 3), progressed(story, 1, 1, 2)]);
    // A late, older count of Ada's (redelivered out of order) changes nothing.
    await h.bus.publish([progressed(story, 0, 1, 2)]);
    const res = await progressOf();
    expect(res.body.counts).toEqual({ notStarted: 1, inProgress: 2, submitted: 0 });
    const [ada, ben, cy] = res.body.students;
    expect(ada).toMatchObject({ firstName: 'Ada', status: 'in_progress', answered: 2, submittedAt: null });
    expect(ada.startedAt).toBe('2026-11-20T11:00:00.000Z');
    expect(ada.lastSavedAt).toBe('2026-11-20T11:03:00.000Z');
    expect(ben).toMatchObject({ firstName: 'Ben', status: 'in_progress', answered: 1 });
    expect(cy).toMatchObject({ firstName: 'Cy', status: 'not_started', answered: null, startedAt: null });
    // Counts only: nothing of what was answered or how well.
    expect(Object.keys(ada).sort()).toEqual(
      ['answered', 'firstName', 'lastName', 'lastSavedAt', 'startedAt', 'status', 'studentId', 'submittedAt'].sort(),
    );
    const grid = (await call(h, story.teacher, 'GET', `/api/classes/${story.classId}/grid`)).body;
    expect(grid.cells).toEqual([]);
    expect(
      grid.inProgress.map((c: { studentId: string; answered: number; questionCount: number }) => [
        c.studentId,
        c.answered,
        c.questionCount,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [story.students[0]!.id, 2, 3],
        [story.students[1]!.id, 1, 3],
      ]),
    );
    expect(grid.inProgress).toHaveLength(2);
  });

  it('when a student submits, then they show as submitted, leave the grid’s progress, and a late count does not bring the attempt back', async () => {
    await h.bus.publish([results[0]!]);
    await h.bus.publish([progressed(story, 0, 3, 9)]);
    await h.bus.publish([progressed(story, 2, 1, 9)]);
    const res = await progressOf();
    expect(res.body.counts).toEqual({ notStarted: 0, inProgress: 2, submitted: 1 });
    expect(res.body.students[0]).toMatchObject({ firstName: 'Ada', status: 'submitted', answered: null });
    expect(res.body.students[0].submittedAt).not.toBeNull();
    const grid = (await call(h, story.teacher, 'GET', `/api/classes/${story.classId}/grid`)).body;
    expect(grid.cells.map((c: { studentId: string }) => c.studentId)).toEqual([story.students[0]!.id]);
    expect(grid.inProgress.map((c: { studentId: string }) => c.studentId).sort()).toEqual(
      [story.students[1]!.id, story.students[2]!.id].sort(),
    );
    const { rows } = await h.sql.query('select student_id from attempt_progress where student_id = $1', [
      story.students[0]!.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('when a count arrives, then the class’s live stream says `progress` naming no student', async () => {
    const ctl = new AbortController();
    const res = await fetch(`${h.url}/api/dashboard/live?classId=${story.classId}`, {
      headers: await gatewayHeaders('analytics', story.teacher),
      signal: ctl.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    await h.bus.publish([progressed(story, 1, 2, 20)]);
    const deadline = Date.now() + 10_000;
    while (!text.includes('event: progress') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    ctl.abort();
    const frame = text.slice(text.indexOf('event: progress')).split('\n\n')[0]!;
    expect(frame).toBe(
      `event: progress\ndata: ${JSON.stringify({ classId: story.classId, assessmentId: story.assessmentId })}`,
    );
    expect(frame).not.toContain(story.students[1]!.id);
  });

  it('when the event breaks the contract, then it is refused naming the field and nothing is stored', async () => {
    const bad = event(
      AttemptProgressedSchema,
      {
        assessmentId: story.assessmentId,
        tenantId: story.tenantId,
        classId: story.classId,
        studentId: story.students[2]!.id,
        answeredCount: -1,
        questionCount: 3,
      },
      story.assessmentId,
      story.tenantId,
    );
    await h.bus.publish([bad]);
    expect(h.bus.deadLetters.at(-1)?.error).toMatch(/AttemptProgressed: answeredCount must be a whole number/);
    const res = await progressOf();
    expect(res.body.students[2]).toMatchObject({ firstName: 'Cy', answered: 1 });
  });
});

describe('who sees live progress', () => {
  it('when another teacher, an admin of another district, a student or nobody asks, then 404, 403 or 401; the district admin sees it', async () => {
    const path = `/api/assessments/${story.assessmentId}/progress`;
    expect((await call(h, actor('teacher', story.tenantId), 'GET', path)).status).toBe(404);
    expect((await call(h, actor('admin'), 'GET', path)).status).toBe(404);
    const student = { userId: story.students[1]!.id, tenantId: story.tenantId, role: 'student' as const };
    expect((await call(h, student, 'GET', path)).status).toBe(403);
    expect((await call(h, undefined, 'GET', path)).status).toBe(401);
    const admin = await call(h, actor('admin', story.tenantId), 'GET', path);
    expect(admin.status).toBe(200);
    expect(admin.body.counts).toEqual({ notStarted: 0, inProgress: 2, submitted: 1 });
    expect((await call(h, story.teacher, 'GET', '/api/assessments/not-an-id/progress')).status).toBe(404);
    expect((await call(h, story.teacher, 'GET', `/api/assessments/${randomUUID()}/progress`)).status).toBe(404);
  });
});

describe('progress that goes', () => {
  const rowsOf = async (where: string, id: string) =>
    (await h.sql.query(`select 1 from attempt_progress where ${where} = $1`, [id])).rows.length;

  it('when a student is deleted, then their progress goes and a late count of theirs is dropped', async () => {
    const s = classStory(story.tenantId);
    await h.bus.publish(
      s.events.filter((m) => !/\.(ResultSubmitted|PracticeCompleted|ResultLevelRaised)$/.test(typeOf(m))),
    );
    await h.bus.publish([progressed(s, 0, 1, 1), progressed(s, 1, 1, 1)]);
    const ada = s.students[0]!.id;
    expect(await rowsOf('student_id', ada)).toBe(1);
    await h.bus.publish([event(UserDeletedSchema, { userId: ada, tenantId: s.tenantId }, ada, s.tenantId)]);
    await h.bus.publish([progressed(s, 0, 2, 5)]);
    expect(await rowsOf('student_id', ada)).toBe(0);
    const res = await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/progress`);
    expect(res.body.students.map((x: { firstName: string }) => x.firstName)).toEqual(['Ben', 'Cy']);
    expect(res.body.counts).toEqual({ notStarted: 1, inProgress: 1, submitted: 0 });
  });

  it('when the assessment is deleted, then its progress goes with it', async () => {
    const s = classStory(story.tenantId);
    await h.bus.publish(
      s.events.filter((m) => !/\.(ResultSubmitted|PracticeCompleted|ResultLevelRaised)$/.test(typeOf(m))),
    );
    await h.bus.publish([progressed(s, 2, 1, 1)]);
    expect(await rowsOf('assessment_id', s.assessmentId)).toBe(1);
    await h.bus.publish([assessmentDeleted(s)]);
    expect(await rowsOf('assessment_id', s.assessmentId)).toBe(0);
    expect((await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/progress`)).status).toBe(404);
  });
});
