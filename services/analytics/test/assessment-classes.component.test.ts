// One assessment given to two classes, one of them only to a chosen student (AssessmentAssigned
// per class), against real Postgres: each class's grid lists it, the results page shows every
// class's results with the class each came through and a row per class, and live progress lists
// only the students it was given to; one live stream follows both classes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AssessmentAssignedSchema,
  ClassCreatedSchema,
  ClassUpdatedSchema,
  ResultSubmittedSchema,
  StudentEnrolledSchema,
  UserRegisteredSchema,
} from '@checkpoint/events';
import { gatewayHeaders } from '@checkpoint/testkit';
import { actor, call, classStory, event, startAnalyticsService, type Harness, type Story } from './helpers.ts';

let h: Harness;
let story: Story;
const period5 = randomUUID();
const chosen = { id: randomUUID(), firstName: 'Dee', lastName: 'Dunn' };
const other = { id: randomUUID(), firstName: 'Eve', lastName: 'Ernst' };
const now = timestampFromDate(new Date());

beforeAll(async () => {
  h = await startAnalyticsService();
  story = classStory();
  const { tenantId, assessmentId, classId } = story;
  await h.bus.publish([
    ...story.events,
    ...[chosen, other].map((s) =>
      event(
        UserRegisteredSchema,
        { userId: s.id, tenantId, email: `${s.id}@example.test`, ...s, role: 'student', occurredAt: now },
        s.id,
        tenantId,
      ),
    ),
    event(
      ClassCreatedSchema,
      {
        classId: period5,
        tenantId,
        teacherId: story.teacher.userId,
        name: 'Biology P5',
        subject: 'Science',
        period: '5',
        joinCode: 'BIO5XYZ',
        occurredAt: now,
      },
      period5,
      tenantId,
    ),
    ...[chosen, other].map((s) =>
      event(
        StudentEnrolledSchema,
        { classId: period5, tenantId, studentId: s.id, membershipId: randomUUID(), occurredAt: now },
        period5,
        tenantId,
      ),
    ),
    event(AssessmentAssignedSchema, { assessmentId, tenantId, classId, occurredAt: now }, assessmentId, tenantId),
    event(
      AssessmentAssignedSchema,
      { assessmentId, tenantId, classId: period5, onlyChosen: true, studentIds: [chosen.id], occurredAt: now },
      assessmentId,
      tenantId,
    ),
    event(
      ResultSubmittedSchema,
      {
        resultId: randomUUID(),
        assessmentId,
        tenantId,
        classId: period5,
        studentId: chosen.id,
        earnedPoints: 3,
        totalPoints: 3,
        percentage: 100,
        level: 'above',
        answers: story.questionIds.map((questionId) => ({ questionId, answer: 'x', correct: true })),
        submittedAt: now,
      },
      assessmentId,
      tenantId,
    ),
  ]);
});
afterAll(() => h?.stop());

describe('an assessment given to two classes', () => {
  it("when the second class's chosen student submits, then that class's grid lists the assessment with their result", async () => {
    const grid = (await call(h, story.teacher, 'GET', `/api/classes/${period5}/grid`)).body;
    expect(grid.assessments.map((a: { id: string }) => a.id)).toEqual([story.assessmentId]);
    expect(grid.cells[0]).toMatchObject({ studentId: chosen.id, assessmentId: story.assessmentId });
  });

  it('then its results page shows every class, each result with its class, and a row per class', async () => {
    const res = await call(h, story.teacher, 'GET', `/api/assessments/${story.assessmentId}/results`);
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ submitted: 4, classSize: 4 });
    expect(res.body.classes).toEqual([
      { classId: story.classId, className: 'Biology', classSize: 3, submitted: 3, averageScore: 56 },
      { classId: period5, className: 'Biology P5', classSize: 1, submitted: 1, averageScore: 100 },
    ]);
    const dee = res.body.results.find((r: { studentId: string }) => r.studentId === chosen.id);
    expect(dee).toMatchObject({ classId: period5, className: 'Biology P5' });
  });

  it('then live progress lists the students it was given to, not the unchosen one', async () => {
    const res = await call(h, story.teacher, 'GET', `/api/assessments/${story.assessmentId}/progress`);
    expect(res.status).toBe(200);
    const names = res.body.students.map((s: { firstName: string }) => s.firstName);
    expect(names).toEqual(['Ada', 'Ben', 'Cy', 'Dee']);
  });

  it("then a co-teacher of the second class only reads it there: that class's results, progress and grid, not the first class's", async () => {
    const co = actor('teacher', story.tenantId);
    const path = `/api/assessments/${story.assessmentId}`;
    expect((await call(h, co, 'GET', `${path}/results`)).status).toBe(404);
    await h.bus.publish([
      event(
        ClassUpdatedSchema,
        {
          classId: period5,
          tenantId: story.tenantId,
          teacherId: story.teacher.userId,
          name: 'Biology P5',
          subject: 'Science',
          period: '5',
          joinCode: 'BIO5XYZ',
          coTeacherIds: [co.userId],
          occurredAt: now,
        },
        period5,
        story.tenantId,
      ),
    ]);
    const res = await call(h, co, 'GET', `${path}/results`);
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ submitted: 1, classSize: 1 });
    expect(res.body.classes).toEqual([
      { classId: period5, className: 'Biology P5', classSize: 1, submitted: 1, averageScore: 100 },
    ]);
    expect(res.body.results.map((r: { studentId: string }) => r.studentId)).toEqual([chosen.id]);
    const progress = await call(h, co, 'GET', `${path}/progress`);
    expect(progress.status).toBe(200);
    expect(progress.body.students.map((s: { firstName: string }) => s.firstName)).toEqual(['Dee']);
    const grid = (await call(h, co, 'GET', `/api/classes/${period5}/grid`)).body;
    expect(grid.assessments.map((a: { id: string }) => a.id)).toEqual([story.assessmentId]);
    expect((await call(h, co, 'GET', `/api/classes/${story.classId}/grid`)).status).toBe(404);
    // The owner still reads every class's.
    expect((await call(h, story.teacher, 'GET', `${path}/results`)).body.summary).toMatchObject({ submitted: 4 });
  });
});

/** A result of `studentId` in `classId` for the story's assessment. */
const submitted = (classId: string, studentId: string, percentage: number) =>
  event(
    ResultSubmittedSchema,
    {
      resultId: randomUUID(),
      assessmentId: story.assessmentId,
      tenantId: story.tenantId,
      classId,
      studentId,
      earnedPoints: (3 * percentage) / 100,
      totalPoints: 3,
      percentage,
      level: percentage >= 80 ? 'above' : 'below',
      answers: story.questionIds.map((questionId) => ({ questionId, answer: 'x', correct: percentage === 100 })),
      submittedAt: timestampFromDate(new Date()),
    },
    story.assessmentId,
    story.tenantId,
  );

describe('one live stream for every class of the assessment', () => {
  it('when the teacher follows both classes in one stream, then a result in either class is announced on it', async () => {
    const ctl = new AbortController();
    const res = await fetch(`${h.url}/api/dashboard/live?classId=${story.classId},${period5}`, {
      headers: await gatewayHeaders('analytics', story.teacher),
      signal: ctl.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const frames = () =>
      text
        .split('\n\n')
        .filter((f) => f.startsWith('event: result'))
        .map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { classId: string });
    await h.bus.publish([submitted(period5, other.id, 0), submitted(story.classId, story.students[1]!.id, 100)]);
    const deadline = Date.now() + 10_000;
    while (new Set(frames().map((f) => f.classId)).size < 2 && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    ctl.abort();
    expect(new Set(frames().map((f) => f.classId))).toEqual(new Set([story.classId, period5]));
  });

  it('when one of the classes is not the caller’s, or an id is malformed, then 404 or 400 and no stream', async () => {
    const stranger = actor('teacher', story.tenantId);
    const theirs = (await call(h, stranger, 'GET', `/api/dashboard/live?classId=${period5}`)).status;
    expect(theirs).toBe(404);
    // The teacher's own class with one that is not: the whole stream is refused.
    const mixed = await call(h, story.teacher, 'GET', `/api/dashboard/live?classId=${story.classId},${randomUUID()}`);
    expect(mixed.status).toBe(404);
    const bad = await call(h, story.teacher, 'GET', `/api/dashboard/live?classId=${story.classId},abc`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['classId']);
  });
});
