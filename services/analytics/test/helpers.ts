// Test helpers: the analytics service on a fresh database, and a class's story as the other
// services would tell it (events on their topics, in their order), to publish once, twice or
// into a second instance.
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AssessmentCreatedSchema,
  AssessmentDeletedSchema,
  buildHeaders,
  ClassCreatedSchema,
  create,
  PracticeCompletedSchema,
  QuestionsChangedSchema,
  ResultLevelRaisedSchema,
  ResultSubmittedSchema,
  StudentEnrolledSchema,
  toBinary,
  topicFor,
  UserRegisteredSchema,
  type BusMessage,
} from '@checkpoint/events';
import { gatewayHeaders, startServiceForTest, type Actor, type Harness } from '@checkpoint/testkit';
import { analyticsService } from '../src/index.ts';

export { actor, call, eventually, type Actor, type Harness, type Reply } from '@checkpoint/testkit';

export const startAnalyticsService = (env: Record<string, string> = {}): Promise<Harness> =>
  startServiceForTest(analyticsService, env);

/**
 * A CSV export as `who` gets it through the gateway: the response, whether the file starts with
 * the UTF-8 byte-order mark (looked for in the bytes: the decoder drops it) and its lines.
 */
export async function csvExport(h: Harness, path: string, who: Actor | undefined) {
  const res = await fetch(h.url + path, { headers: await gatewayHeaders('analytics', who, '127.0.0.1') });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { res, bom, lines: new TextDecoder().decode(bytes).trim().split(/\r?\n/) };
}

/** One event as its producer's relay would put it on the bus. */
export function event<D extends DescMessage>(
  schema: D,
  init: MessageInitShape<D>,
  key: string,
  tenantId: string,
  id: string = randomUUID(),
): BusMessage {
  const topic = topicFor(schema);
  return {
    topic,
    key,
    value: toBinary(schema, create(schema, init)),
    headers: buildHeaders({ id, type: schema.typeName, source: topic.split('.')[1]!, time: new Date(), tenantId }),
  };
}

const at = (minutesAgo: number) => timestampFromDate(new Date(Date.UTC(2026, 10, 20, 12, 0) - minutesAgo * 60_000));

export interface Story {
  tenantId: string;
  teacher: Actor;
  classId: string;
  assessmentId: string;
  students: { id: string; firstName: string; lastName: string }[];
  questionIds: string[];
  resultIds: string[];
  events: BusMessage[];
}

/**
 * A teacher's class with three students and one assessment of three 1-point questions (multiple
 * choice, true/false, short answer), which all three submit:
 *   Ada   3/3 = 100 % above  (B, True, chlorophyll)
 *   Ben   2/3 ≈ 66.67 % below (B, False, chlorophyll)
 *   Cy    0/3 = 0 %   below  (C, False, sugar) — then raised to 'at' by support practice
 */
export function classStory(tenantId: string = randomUUID()): Story {
  const teacher: Actor = { userId: randomUUID(), tenantId, role: 'teacher' };
  const classId = randomUUID();
  const assessmentId = randomUUID();
  const students = [
    { id: randomUUID(), firstName: 'Ada', lastName: 'Anders' },
    { id: randomUUID(), firstName: 'Ben', lastName: 'Brook' },
    { id: randomUUID(), firstName: 'Cy', lastName: 'Cole' },
  ];
  const questionIds = [randomUUID(), randomUUID(), randomUUID()];
  const resultIds = [randomUUID(), randomUUID(), randomUUID()];
  const events: BusMessage[] = [
    event(
      UserRegisteredSchema,
      {
        userId: teacher.userId,
        tenantId,
        email: 'tess@example.test',
        firstName: 'Tess',
        lastName: 'Teach',
        role: 'teacher',
        occurredAt: at(600),
      },
      teacher.userId,
      tenantId,
    ),
    ...students.map((s, i) =>
      event(
        UserRegisteredSchema,
        {
          userId: s.id,
          tenantId,
          email: `${s.firstName.toLowerCase()}@example.test`,
          firstName: s.firstName,
          lastName: s.lastName,
          role: 'student',
          occurredAt: at(500 - i),
        },
        s.id,
        tenantId,
      ),
    ),
    event(
      ClassCreatedSchema,
      {
        classId,
        tenantId,
        teacherId: teacher.userId,
        name: 'Biology',
        subject: 'Science',
        period: '3',
        joinCode: 'BIO3XYZ',
        occurredAt: at(400),
      },
      classId,
      tenantId,
    ),
    ...students.map((s, i) =>
      event(
        StudentEnrolledSchema,
        { classId, tenantId, studentId: s.id, membershipId: randomUUID(), occurredAt: at(300 - i) },
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
        teacherId: teacher.userId,
        title: 'Photosynthesis',
        description: 'Check',
        topic: 'Plants',
        standard: 'NGSS.LS1.C',
        isActive: true,
        occurredAt: at(200),
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
            questionId: questionIds[0],
            questionText: 'Where does photosynthesis happen?',
            questionType: 'multiple_choice',
            options: ['A', 'B', 'C', 'D'],
            correctAnswer: 'B',
            points: 1,
          },
          {
            questionId: questionIds[1],
            questionText: 'Plants need light.',
            questionType: 'true_false',
            options: ['True', 'False'],
            correctAnswer: 'True',
            points: 1,
          },
          {
            questionId: questionIds[2],
            questionText: 'The green pigment is called _____.',
            questionType: 'short_answer',
            options: [],
            correctAnswer: 'chlorophyll',
            points: 1,
          },
        ],
        occurredAt: at(190),
      },
      assessmentId,
      tenantId,
    ),
  ];
  const answers: [string, string, string][] = [
    ['B', 'True', 'chlorophyll'],
    ['B', 'False', 'Chlorophyll'],
    ['C', 'False', 'sugar'],
  ];
  const correct = [
    [true, true, true],
    [true, false, true],
    [false, false, false],
  ];
  students.forEach((s, i) => {
    const earned = correct[i]!.filter(Boolean).length;
    const percentage = (earned / 3) * 100;
    events.push(
      event(
        ResultSubmittedSchema,
        {
          resultId: resultIds[i],
          assessmentId,
          tenantId,
          classId,
          studentId: s.id,
          earnedPoints: earned,
          totalPoints: 3,
          percentage,
          level: percentage >= 90 ? 'above' : percentage >= 80 ? 'at' : 'below',
          answers: questionIds.map((q, j) => ({ questionId: q, answer: answers[i]![j], correct: correct[i]![j] })),
          submittedAt: at(100 - i * 10),
        },
        assessmentId,
        tenantId,
      ),
    );
  });
  events.push(
    event(
      PracticeCompletedSchema,
      {
        assessmentId,
        tenantId,
        studentId: students[2]!.id,
        type: 'support',
        scorePercent: 85,
        resultId: resultIds[2],
        occurredAt: at(50),
      },
      assessmentId,
      tenantId,
    ),
    event(
      ResultLevelRaisedSchema,
      {
        resultId: resultIds[2],
        assessmentId,
        tenantId,
        classId,
        studentId: students[2]!.id,
        fromLevel: 'below',
        toLevel: 'at',
        occurredAt: at(49),
      },
      assessmentId,
      tenantId,
    ),
  );
  return { tenantId, teacher, classId, assessmentId, students, questionIds, resultIds, events };
}

export function assessmentDeleted(story: Story): BusMessage {
  return event(
    AssessmentDeletedSchema,
    { assessmentId: story.assessmentId, tenantId: story.tenantId, classId: story.classId, occurredAt: at(10) },
    story.assessmentId,
    story.tenantId,
  );
}

/** The read-model tables, emptied (with the inbox) to replay a topic into a clean schema. */
export const READ_MODEL_TABLES = [
  'result_answers',
  'results',
  'questions',
  'assessments',
  'memberships',
  'classes',
  'people',
  'practice_completions',
  'attempt_progress',
  'tenant_figures',
  'student_figures',
  'question_standards',
  'mastery_evidence',
  'student_mastery',
  'class_mastery_figures',
  'standard_mastery_figures',
  'inbox',
];

/**
 * The tenant's running figures next to a recount of what they stand for: results by level, people
 * by role, and students by the band of their average (as the cards show it).
 */
export async function figuresAndRecount(h: Harness, tenantId: string) {
  const { rows: kept } = await h.sql.query(
    `select results, round(percentage_sum::numeric, 6)::float8 as sum, below, at, above, users, teachers, students,
            students_above, students_at, students_below from tenant_figures where tenant_id = $1`,
    [tenantId],
  );
  const { rows: recount } = await h.sql.query(
    `with r as (select * from results where tenant_id = $1),
          s as (select round(round((avg(percentage))::numeric, 6)) as avg from r group by student_id),
          p as (select * from people where tenant_id = $1)
     select (select count(*)::int from r) as results,
            (select round(coalesce(sum(percentage), 0)::numeric, 6)::float8 from r) as sum,
            (select count(*)::int from r where level = 'below') as below,
            (select count(*)::int from r where level = 'at') as at,
            (select count(*)::int from r where level = 'above') as above,
            (select count(*)::int from p where not disabled) as users,
            (select count(*)::int from p where not disabled and role = 'teacher') as teachers,
            (select count(*)::int from p where not disabled and role = 'student') as students,
            (select count(*)::int from s where avg >= 80) as students_above,
            (select count(*)::int from s where avg >= 60 and avg < 80) as students_at,
            (select count(*)::int from s where avg < 60) as students_below`,
    [tenantId],
  );
  return { kept: kept[0], recount: recount[0] };
}
