// The notification digest against a real Postgres and a real SMTP server (the mail catcher): the
// switches identity publishes decide who gets what; several submissions make ONE mail; a second
// pass sends nothing new; a reminder goes out once; two passes at once send once.
import { randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssessmentAssignedSchema,
  AssessmentCreatedSchema,
  ClassCreatedSchema,
  ResultSubmittedSchema,
  StudentEnrolledSchema,
  UserRegisteredSchema,
  UserUpdatedSchema,
} from '@checkpoint/events';
import { startMailCatcher, type MailCatcher } from '@checkpoint/testkit';
import { runDigestPass } from '../src/data-access/digest.repository.ts';
import { event, eventually, startAnalyticsService, type Harness } from './helpers.ts';

const BASE = 'https://checkpoint.example.org';
let h: Harness;
let mail: MailCatcher;

beforeAll(async () => {
  mail = await startMailCatcher();
  // A long period: only the passes the tests run (with period 0) send anything.
  h = await startAnalyticsService({ SMTP_URL: mail.url, NOTIFICATION_DIGEST_MINUTES: '1440', PUBLIC_URL: BASE });
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await mail?.stop();
});

const pass = () => runDigestPass(h.sql, { windowMs: 0, baseUrl: BASE });
const ago = (minutes: number) => timestampFromDate(new Date(Date.now() - minutes * 60_000));
const switches = (
  on: Partial<Record<'emailNotifications' | 'assessmentReminders' | 'studentSubmissions', boolean>>,
) => ({
  emailNotifications: false,
  assessmentReminders: false,
  studentSubmissions: true,
  ...on,
});

interface World {
  tenantId: string;
  teacher: { id: string; email: string };
  students: { id: string; email: string; firstName: string }[];
  classId: string;
  assessmentId: string;
}

function person(tenantId: string, role: string, firstName: string, notifications?: ReturnType<typeof switches>) {
  const id = randomUUID();
  const email = `${firstName.toLowerCase()}.${id.slice(0, 8)}@example.test`;
  const message = event(
    UserRegisteredSchema,
    {
      userId: id,
      tenantId,
      email,
      firstName,
      lastName: 'Tester',
      role,
      occurredAt: ago(60),
      ...(notifications ? { notifications } : {}),
    },
    id,
    tenantId,
  );
  return { id, email, firstName, message };
}

/** A teacher's class with three students and one assessment, assigned; nothing submitted yet. */
async function world(
  teacherSwitches: ReturnType<typeof switches> | undefined,
  studentSwitches?: ReturnType<typeof switches>,
  dueAt?: Date,
): Promise<World> {
  const tenantId = randomUUID();
  const teacher = person(tenantId, 'teacher', 'Tess', teacherSwitches);
  const students = ['Ada', 'Ben', 'Cy'].map((n) => person(tenantId, 'student', n, studentSwitches));
  const classId = randomUUID();
  const assessmentId = randomUUID();
  await h.bus.publish([
    teacher.message,
    ...students.map((s) => s.message),
    event(
      ClassCreatedSchema,
      {
        classId,
        tenantId,
        teacherId: teacher.id,
        name: 'Biology',
        subject: 'Science',
        period: '3',
        joinCode: 'BIO3XYZ',
        occurredAt: ago(50),
      },
      classId,
      tenantId,
    ),
    ...students.map((s) =>
      event(
        StudentEnrolledSchema,
        { classId, tenantId, studentId: s.id, membershipId: randomUUID(), occurredAt: ago(40) },
        classId,
        tenantId,
      ),
    ),
    event(
      AssessmentCreatedSchema,
      {
        assessmentId,
        tenantId,
        classId,
        teacherId: teacher.id,
        title: 'Photosynthesis',
        description: '',
        topic: 'Plants',
        standard: '',
        isActive: true,
        occurredAt: ago(30),
        ...(dueAt ? { dueAt: timestampFromDate(dueAt) } : {}),
      },
      assessmentId,
      tenantId,
    ),
  ]);
  // The class's topic and the assessment's are read apart: assigned once the students are in.
  await eventually(
    () => h.sql.query('select 1 from memberships where class_id = $1', [classId]),
    (r) => r.rowCount === 3,
  );
  await h.bus.publish([
    event(AssessmentAssignedSchema, { assessmentId, tenantId, classId, occurredAt: ago(29) }, assessmentId, tenantId),
  ]);
  await eventually(
    () => h.sql.query('select assigned_at from assessments where assessment_id = $1', [assessmentId]),
    (r) => r.rows[0]?.assigned_at != null,
  );
  return { tenantId, teacher, students, classId, assessmentId };
}

async function submit(w: World, student: World['students'][number], percentage: number) {
  const resultId = randomUUID();
  await h.bus.publish([
    event(
      ResultSubmittedSchema,
      {
        resultId,
        assessmentId: w.assessmentId,
        tenantId: w.tenantId,
        classId: w.classId,
        studentId: student.id,
        earnedPoints: percentage / 10,
        totalPoints: 10,
        percentage,
        level: percentage >= 80 ? 'above' : percentage >= 60 ? 'at' : 'below',
        answers: [],
        submittedAt: ago(1),
      },
      w.assessmentId,
      w.tenantId,
    ),
  ]);
  await eventually(
    () => h.sql.query('select 1 from digest_items where ref_id = $1', [resultId]),
    (r) => (r.rowCount ?? 0) > 0,
  );
}

const to = (address: string) => mail.messages().filter((m) => m.to.includes(address));

/** Waits until the queue is empty (the sender delivered everything). */
const delivered = () =>
  eventually(
    () => h.sql.query('select 1 from outgoing_mail where sent_at is null'),
    (r) => r.rowCount === 0,
  );

describe('notification digest', () => {
  it('when three students submit, then the teacher gets ONE mail listing the three with score, level and link; a second pass sends nothing', async () => {
    const w = await world(switches({}));
    await submit(w, w.students[0]!, 100);
    await submit(w, w.students[1]!, 70);
    await submit(w, w.students[2]!, 20);
    const first = await pass();
    expect(first.ran).toBe(true);
    const m = await mail.waitFor((x) => x.to.includes(w.teacher.email));
    expect(m.subject).toBe('Checkpoint: 3 new submissions');
    for (const [name, line] of [
      ['Ada Tester', 'Photosynthesis (Biology): 100% (Above Standard)'],
      ['Ben Tester', 'Photosynthesis (Biology): 70% (At Standard)'],
      ['Cy Tester', 'Photosynthesis (Biology): 20% (Below Standard)'],
    ])
      expect(m.text).toContain(`- ${name} — ${line}`);
    expect(m.text).toContain(`${BASE}/assessment-results/${w.assessmentId}`);
    // Email Notifications is off: the students who joined are not listed.
    expect(m.text).not.toContain('joined');

    await pass();
    await delivered();
    expect(to(w.teacher.email)).toHaveLength(1);
    // The students have no switch on: no mail to them.
    for (const s of w.students) expect(to(s.email)).toHaveLength(0);
  });

  it('when the teacher turned Student Submissions off, then no mail, and turning it on later does not mail the past', async () => {
    const w = await world(switches({}));
    await h.bus.publish([
      event(
        UserUpdatedSchema,
        {
          userId: w.teacher.id,
          tenantId: w.tenantId,
          email: w.teacher.email,
          firstName: 'Tess',
          lastName: 'Tester',
          role: 'teacher',
          notifications: switches({ studentSubmissions: false }),
          occurredAt: ago(0),
        },
        w.teacher.id,
        w.tenantId,
      ),
    ]);
    await eventually(
      () => h.sql.query('select student_submissions from notification_settings where user_id = $1', [w.teacher.id]),
      (r) => r.rows[0]?.student_submissions === false,
    );
    await submit(w, w.students[0]!, 90);
    await pass();
    await h.bus.publish([
      event(
        UserUpdatedSchema,
        {
          userId: w.teacher.id,
          tenantId: w.tenantId,
          email: w.teacher.email,
          firstName: 'Tess',
          lastName: 'Tester',
          role: 'teacher',
          notifications: switches({ studentSubmissions: true }),
          occurredAt: ago(0),
        },
        w.teacher.id,
        w.tenantId,
      ),
    ]);
    await eventually(
      () => h.sql.query('select student_submissions from notification_settings where user_id = $1', [w.teacher.id]),
      (r) => r.rows[0]?.student_submissions === true,
    );
    await pass();
    await delivered();
    expect(to(w.teacher.email)).toHaveLength(0);
  });

  it('when Email Notifications is on, then the teacher’s digest lists who joined and each student hears of the new assessment', async () => {
    const w = await world(switches({ emailNotifications: true }), switches({ emailNotifications: true }));
    await pass();
    const teacherMail = await mail.waitFor((x) => x.to.includes(w.teacher.email));
    expect(teacherMail.subject).toBe('Checkpoint: 3 students joined');
    expect(teacherMail.text).toContain('- Ada Tester joined Biology');
    expect(teacherMail.text).toContain(`${BASE}/class/${w.classId}`);
    for (const s of w.students) {
      const m = await mail.waitFor((x) => x.to.includes(s.email));
      expect(m.subject).toBe('Checkpoint: 1 new assessment');
      expect(m.text).toContain(`- Photosynthesis (Biology)\n  ${BASE}/assessment/${w.assessmentId}`);
    }
  });

  it('when an assignment is due within 24 hours, then students with reminders on who have not submitted get one reminder, once', async () => {
    const due = new Date(Date.now() + 6 * 3_600_000);
    const w = await world(switches({ studentSubmissions: false }), switches({ assessmentReminders: true }), due);
    await submit(w, w.students[0]!, 100);
    await pass();
    await pass();
    await delivered();
    expect(to(w.students[0]!.email)).toHaveLength(0);
    for (const s of w.students.slice(1)) {
      const mails = to(s.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Checkpoint: 1 assessment due soon');
      expect(mails[0]!.text).toContain('Due within 24 hours and not yet submitted:');
    }
    expect(to(w.teacher.email)).toHaveLength(0);
  });

  it('when two passes run at once (two replicas), then each digest is queued once', async () => {
    const w = await world(switches({}));
    await submit(w, w.students[0]!, 50);
    await submit(w, w.students[1]!, 60);
    const results = await Promise.all([pass(), pass(), pass()]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(1);
    await delivered();
    expect(to(w.teacher.email)).toHaveLength(1);
  });

  it('when a removed account has news, then it gets no mail', async () => {
    const w = await world(switches({}));
    await h.bus.publish([
      event(
        UserUpdatedSchema,
        {
          userId: w.teacher.id,
          tenantId: w.tenantId,
          email: w.teacher.email,
          firstName: 'Tess',
          lastName: 'Tester',
          role: 'teacher',
          notifications: switches({}),
          disabled: true,
          occurredAt: ago(0),
        },
        w.teacher.id,
        w.tenantId,
      ),
    ]);
    await eventually(
      () => h.sql.query('select disabled from notification_settings where user_id = $1', [w.teacher.id]),
      (r) => r.rows[0]?.disabled === true,
    );
    await submit(w, w.students[0]!, 90);
    await pass();
    await delivered();
    expect(to(w.teacher.email)).toHaveLength(0);
  });
});
