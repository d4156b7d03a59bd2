// Test helpers: the generation service on a fresh database with an in-process bus, calls with
// gateway caller headers, other services' events delivered through the bus, decoded outbox rows.
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import {
  AssessmentCreatedSchema,
  AssessmentUpdatedSchema,
  eventRegistry,
  fromBinary,
  QuestionsChangedSchema,
  ResultSubmittedSchema,
  StudentEnrolledSchema,
} from '@checkpoint/events';

import { actor, eventMessage, startServiceForTest, type Actor, type Harness } from '@checkpoint/testkit';

export { actor, call, eventually, type Actor, type Harness, type Reply } from '@checkpoint/testkit';
import { generationService } from '../src/index.ts';

export const startGenerationService = (env: Record<string, string> = {}): Promise<Harness> =>
  startServiceForTest(generationService, { GENERATION_POLL_MS: '100', GENERATION_RETRY_DELAY_MS: '0', ...env });

/** Delivers an event through the bus as its producer's relay would; returns its id. */
export async function deliver<D extends DescMessage>(
  h: Harness,
  schema: D,
  init: MessageInitShape<D>,
  key: string,
  tenantId: string,
  eventId: string = randomUUID(),
): Promise<string> {
  await h.bus.publish([eventMessage(schema, init, { key, tenantId, id: eventId })]);
  return eventId;
}

export interface Lesson {
  assessmentId: string;
  classId: string;
  tenantId: string;
  teacher: Actor;
}

export const LESSON_TEXT =
  'Photosynthesis is the process plants use to turn sunlight, water and carbon dioxide into glucose and oxygen. ' +
  'It happens in the chloroplasts, which contain chlorophyll. Chlorophyll absorbs mostly red and blue light and reflects green light. ' +
  'The oxygen leaves the leaf through small pores called stomata. ' +
  'Water travels from the roots to the leaves through tubes called xylem. ' +
  'Glucose is the sugar that gives the plant energy to grow.';

/** AssessmentCreated with a generation request, as the assessment service publishes it. */
export async function createAssessment(
  h: Harness,
  options: {
    teacher?: Actor;
    questionType?: string;
    count?: number;
    content?: string;
    generation?: boolean;
    /** The chosen standards, with their statements (GenerationRequest.standards). */
    standards?: { identifier: string; code: string; statement: string }[];
  } = {},
): Promise<Lesson & { eventId: string }> {
  const teacher = options.teacher ?? actor('teacher');
  const assessmentId = randomUUID();
  const classId = randomUUID();
  const eventId = await deliver(
    h,
    AssessmentCreatedSchema,
    {
      assessmentId,
      tenantId: teacher.tenantId,
      classId,
      teacherId: teacher.userId,
      title: 'Photosynthesis check',
      description: '',
      topic: 'Photosynthesis',
      standard: 'Photosynthesis',
      isActive: true,
      ...(options.generation === false
        ? {}
        : {
            generation: {
              contentToAssess: options.content ?? LESSON_TEXT,
              questionType: options.questionType ?? 'mixed',
              numberOfQuestions: options.count ?? 5,
              standards: options.standards ?? [],
            },
          }),
      occurredAt: timestampNow(),
    },
    assessmentId,
    teacher.tenantId,
  );
  return { assessmentId, classId, tenantId: teacher.tenantId, teacher, eventId };
}

/** AssessmentUpdated: the teacher saved the details form (the lesson text itself stays). */
export async function updateDetails(h: Harness, l: Lesson, details: { title: string; topic: string }): Promise<void> {
  await deliver(
    h,
    AssessmentUpdatedSchema,
    {
      assessmentId: l.assessmentId,
      tenantId: l.tenantId,
      classId: l.classId,
      title: details.title,
      description: '',
      topic: details.topic,
      standard: '',
      occurredAt: timestampNow(),
    },
    l.assessmentId,
    l.tenantId,
  );
}

export interface StoredQuestion {
  questionId: string;
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  points: number;
}

/** QuestionsChanged, as the assessment service publishes after storing generated questions. */
export async function storeQuestions(
  h: Harness,
  l: Lesson,
  questions: Omit<StoredQuestion, 'questionId' | 'points'>[],
): Promise<StoredQuestion[]> {
  const stored = questions.map((q) => ({ ...q, questionId: randomUUID(), points: 1 }));
  await deliver(
    h,
    QuestionsChangedSchema,
    { assessmentId: l.assessmentId, tenantId: l.tenantId, classId: l.classId, questions: stored },
    l.assessmentId,
    l.tenantId,
  );
  return stored;
}

export async function enrol(h: Harness, l: Lesson, student: Actor): Promise<void> {
  await deliver(
    h,
    StudentEnrolledSchema,
    { classId: l.classId, tenantId: l.tenantId, studentId: student.userId, membershipId: randomUUID() },
    l.classId,
    l.tenantId,
  );
}

/** ResultSubmitted for `student`, with the given questions answered right or wrong. */
export async function submitResult(
  h: Harness,
  l: Lesson,
  student: Actor,
  questions: StoredQuestion[],
  correct: boolean[],
  /** Which attempt it is and whether it counts (absent: an event from before retakes). */
  attempt: { attempt: number; counted: boolean } = { attempt: 0, counted: false },
): Promise<string> {
  const resultId = randomUUID();
  const earned = correct.filter(Boolean).length;
  const percentage = Math.round((earned / questions.length) * 100);
  await deliver(
    h,
    ResultSubmittedSchema,
    {
      resultId,
      assessmentId: l.assessmentId,
      tenantId: l.tenantId,
      classId: l.classId,
      studentId: student.userId,
      earnedPoints: earned,
      totalPoints: questions.length,
      percentage,
      level: percentage >= 90 ? 'above' : percentage >= 80 ? 'at' : 'below',
      answers: questions.map((q, i) => ({
        questionId: q.questionId,
        answer: correct[i] ? q.correctAnswer : 'wrong',
        correct: !!correct[i],
      })),
      submittedAt: timestampNow(),
      ...attempt,
    },
    l.assessmentId,
    l.tenantId,
  );
  return resultId;
}

export interface OutboxEvent {
  type: string;
  tenantId: string;
  // Decoded protobuf message under test.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  message: any;
}

/** The outbox rows (decoded) for one assessment, oldest first. */
export async function outboxFor(h: Harness, assessmentId: string): Promise<OutboxEvent[]> {
  const { rows } = await h.sql.query<{ type: string; tenant_id: string; payload: Buffer }>(
    'select type, tenant_id, payload from outbox where key = $1 order by created_at, id',
    [assessmentId],
  );
  return rows.map((r) => {
    const schema = eventRegistry.getMessage(r.type);
    if (!schema) throw new Error(`unknown type ${r.type}`);
    return { type: r.type, tenantId: r.tenant_id, message: fromBinary(schema, r.payload) };
  });
}
