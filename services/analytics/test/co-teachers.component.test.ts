// Co-teachers (issue 30, item 8): a class's co-teacher (ClassUpdated's co_teacher_ids) reads its
// results, grid, dashboards, reports and mastery as its owner does; once the class's event no
// longer names them, the class is out of their scope again. The owner's usage (plan) counts only
// the classes they own. A teacher newly added is mailed once, with the link to the class.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ClassUpdatedSchema, StudentEnrolledSchema, UserRegisteredSchema } from '@checkpoint/events';
import { actor, call, classStory, event, startAnalyticsService, type Harness, type Story } from './helpers.ts';

let h: Harness;
let story: Story;
beforeAll(async () => {
  h = await startAnalyticsService();
  story = classStory();
  await h.bus.publish(story.events);
});
afterAll(() => h?.stop());

const setCoTeachers = (coTeacherIds: string[]) =>
  h.bus.publish([
    event(
      ClassUpdatedSchema,
      {
        classId: story.classId,
        tenantId: story.tenantId,
        teacherId: story.teacher.userId,
        name: 'Biology',
        subject: 'Science',
        period: '3',
        joinCode: 'BIO3XYZ',
        coTeacherIds,
      },
      story.classId,
      story.tenantId,
    ),
  ]);

describe('a co-teacher of the class', () => {
  it('reads what the owner reads of the class; after removal, nothing', async () => {
    const co = actor('teacher', story.tenantId);
    const coEmail = `cora.${co.userId.slice(0, 8)}@example.test`;
    await h.bus.publish([
      event(
        UserRegisteredSchema,
        {
          userId: co.userId,
          tenantId: story.tenantId,
          email: coEmail,
          firstName: 'Cora',
          lastName: 'Co',
          role: 'teacher',
        },
        co.userId,
        story.tenantId,
      ),
    ]);
    const mailsTo = async (to: string) =>
      (
        await h.sql.query<{ subject: string; text: string }>(
          'select subject, text from outgoing_mail where "to" = $1',
          [to],
        )
      ).rows;
    const classPaths = () => [
      `/api/classes/${story.classId}/results`,
      `/api/classes/${story.classId}/grid`,
      `/api/assessments/${story.assessmentId}/results`,
      `/api/classes/${story.classId}/mastery`,
    ];
    for (const p of classPaths()) expect((await call(h, co, 'GET', p)).status, p).toBe(404);
    expect((await call(h, co, 'GET', '/api/all-results')).body.results ?? []).toEqual([]);

    await setCoTeachers([co.userId]);
    const mails = await mailsTo(coEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('You are now a co-teacher of Biology');
    expect(mails[0]!.text).toContain('Hello Cora,');
    expect(mails[0]!.text).toContain('Tess Teach added you as a co-teacher of Biology.');
    expect(mails[0]!.text).toContain(`/class/${story.classId}`);
    // A student joining now is noted for both teachers' digests.
    const newcomer = randomUUID();
    await h.bus.publish([
      event(
        StudentEnrolledSchema,
        { classId: story.classId, tenantId: story.tenantId, studentId: newcomer, membershipId: randomUUID() },
        story.classId,
        story.tenantId,
      ),
    ]);
    const noted = await h.sql.query<{ user_id: string }>(
      `select user_id from digest_items where kind = 'joined' and subject_id = $1 order by user_id`,
      [newcomer],
    );
    expect(noted.rows.map((r) => r.user_id).sort()).toEqual([co.userId, story.teacher.userId].sort());
    // The same list again (another change of the class): no second mail.
    await setCoTeachers([co.userId]);
    expect(await mailsTo(coEmail)).toHaveLength(1);
    for (const p of classPaths()) {
      const [mine, owners] = [await call(h, co, 'GET', p), await call(h, story.teacher, 'GET', p)];
      expect(mine.status, p).toBe(200);
      expect(mine.body, p).toEqual(owners.body);
    }
    for (const p of [
      '/api/all-results',
      `/api/dashboard/students?classId=${story.classId}`,
      '/api/dashboard/students',
    ]) {
      const [mine, owners] = [await call(h, co, 'GET', p), await call(h, story.teacher, 'GET', p)];
      expect(mine.status, p).toBe(200);
      expect(mine.body, p).toEqual(owners.body);
    }
    const student = story.students[0]!.id;
    expect((await call(h, co, 'GET', `/api/mastery/students/${student}`)).status).toBe(200);
    // The plan's usage counts the owner's classes only.
    expect((await call(h, co, 'GET', '/api/dashboard/usage')).body.classes).toBe(0);
    expect((await call(h, story.teacher, 'GET', '/api/dashboard/usage')).body.classes).toBe(1);

    await setCoTeachers([]);
    for (const p of classPaths()) expect((await call(h, co, 'GET', p)).status, p).toBe(404);
    expect((await call(h, co, 'GET', `/api/mastery/students/${student}`)).status).toBe(404);
    expect((await call(h, story.teacher, 'GET', classPaths()[0]!)).status).toBe(200);
  });

  it("of another tenant (an individual account co-teaching) reads the class as its owner does, and nothing else of the owner's", async () => {
    const own = classStory();
    const other = classStory(own.tenantId);
    await h.bus.publish([...own.events, ...other.events]);
    const co = actor('teacher');
    await h.bus.publish([
      event(
        ClassUpdatedSchema,
        {
          classId: own.classId,
          tenantId: own.tenantId,
          teacherId: own.teacher.userId,
          name: 'Biology',
          subject: 'Science',
          period: '3',
          joinCode: 'BIO3XYZ',
          coTeacherIds: [co.userId],
        },
        own.classId,
        own.tenantId,
      ),
    ]);
    for (const p of [
      `/api/classes/${own.classId}/results`,
      `/api/classes/${own.classId}/grid`,
      `/api/assessments/${own.assessmentId}/results`,
      `/api/assessments/${own.assessmentId}/progress`,
      `/api/classes/${own.classId}/mastery`,
      `/api/dashboard/students?classId=${own.classId}`,
    ]) {
      const [mine, owners] = [await call(h, co, 'GET', p), await call(h, own.teacher, 'GET', p)];
      expect(mine.status, p).toBe(200);
      expect(mine.body, p).toEqual(owners.body);
    }
    // The tenant-wide lists hold the co-taught class's results, as the owner's do.
    const all = await call(h, co, 'GET', '/api/all-results');
    expect(all.status).toBe(200);
    const ids = (body: { id: string }[]) => body.map((r) => r.id).sort();
    expect(ids(all.body)).toEqual([...own.resultIds].sort());
    expect(ids(all.body)).toEqual(ids((await call(h, own.teacher, 'GET', '/api/all-results')).body));
    // Another class of the owner's tenant (another teacher's) stays out of reach.
    for (const p of [
      `/api/classes/${other.classId}/grid`,
      `/api/classes/${other.classId}/results`,
      `/api/assessments/${other.assessmentId}/results`,
    ])
      expect((await call(h, co, 'GET', p)).status, p).toBe(404);
  });
});
