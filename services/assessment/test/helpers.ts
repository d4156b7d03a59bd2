// Test helpers: the assessment service on a fresh database with an in-process bus, calls with
// gateway caller headers, other services' events delivered through the bus, and direct SQL.
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import {
  buildHeaders,
  ClassCreatedSchema,
  ClassDeletedSchema,
  create,
  QuestionsGeneratedSchema,
  eventRegistry,
  fromBinary,
  StudentEnrolledSchema,
  StudentRemovedSchema,
  toBinary,
  topicFor,
} from '@checkpoint/events';

import { call, startServiceForTest, type Actor, type Harness } from '@checkpoint/testkit';
import { expect } from 'vitest';

export { actor, call, type Actor, type Harness, type Reply } from '@checkpoint/testkit';
import { assessmentService } from '../src/index.ts';

export const startAssessmentService = (env: Record<string, string> = {}): Promise<Harness> =>
  startServiceForTest(assessmentService, env);

/** Publishes one event as its producer's relay would; resolves once every consumer handled it. */
export async function deliver<D extends DescMessage>(
  h: Harness,
  schema: D,
  init: MessageInitShape<D>,
  meta: { key: string; tenantId: string; source?: string; id?: string },
): Promise<string> {
  const id = meta.id ?? randomUUID();
  await h.bus.publish([
    {
      topic: topicFor(schema),
      key: meta.key,
      value: toBinary(schema, create(schema, init)),
      headers: buildHeaders({
        id,
        type: schema.typeName,
        source: meta.source ?? 'test',
        time: new Date(),
        tenantId: meta.tenantId,
      }),
    },
  ]);
  return id;
}

export async function givenClass(h: Harness, teacher: Actor, name = 'Algebra I', subject = 'Math'): Promise<string> {
  const classId = randomUUID();
  await deliver(
    h,
    ClassCreatedSchema,
    { classId, tenantId: teacher.tenantId, teacherId: teacher.userId, name, subject, period: '1', joinCode: 'ABC123' },
    { key: classId, tenantId: teacher.tenantId },
  );
  return classId;
}

export const enrol = (h: Harness, classId: string, tenantId: string, student: Actor) =>
  deliver(
    h,
    StudentEnrolledSchema,
    { classId, tenantId, studentId: student.userId, membershipId: randomUUID() },
    { key: classId, tenantId },
  );

export const unenrol = (h: Harness, classId: string, tenantId: string, student: Actor) =>
  deliver(
    h,
    StudentRemovedSchema,
    { classId, tenantId, studentId: student.userId, membershipId: randomUUID() },
    { key: classId, tenantId },
  );

export const deleteClassEvent = (h: Harness, classId: string, teacher: Actor) =>
  deliver(
    h,
    ClassDeletedSchema,
    { classId, tenantId: teacher.tenantId, teacherId: teacher.userId },
    { key: classId, tenantId: teacher.tenantId },
  );

/** The outbox rows (decoded) for one key, oldest first. */
export async function outboxFor(
  h: Harness,
  key: string,
): Promise<{ type: string; message: Record<string, unknown> }[]> {
  const { rows } = await h.sql.query<{ type: string; payload: Buffer }>(
    'select type, payload from outbox where key = $1 order by created_at, id',
    [key],
  );
  return rows.map((r) => {
    const schema = eventRegistry.getMessage(r.type);
    if (!schema) throw new Error(`unknown type ${r.type}`);
    return {
      type: r.type.split('.').pop()!,
      message: fromBinary(schema, r.payload) as unknown as Record<string, unknown>,
    };
  });
}

export const VALID_CREATE = {
  title: 'Fractions check',
  contentToAssess: 'Adding fractions with unlike denominators.',
  questionType: 'multiple_choice',
  numberOfQuestions: 5,
  description: 'Quick check',
};

export const MC = {
  questionText: 'What is 1/2 + 1/4?',
  questionType: 'multiple_choice',
  options: ['3/4', '2/6', '1/8', '2/4'],
  correctAnswer: '3/4',
  points: 1,
};

/** A true/false worth 1 (key true): with MC, the two questions of the fixtures below. */
export const TF = { questionText: 'Half of 8 is 4.', questionType: 'true_false', correctAnswer: 'true', points: 1 };

// --- Fixtures of the teacher's toolkit tests (assigning, windows, retakes, grading) ---

/** A question of an assessment as its teacher reads it. */
export interface FixtureQuestion {
  id: string;
  questionType: string;
}

/** A class of `teacher` (ClassCreated) with `students` enrolled (StudentEnrolled). */
export async function classWith(
  h: Harness,
  teacher: Actor,
  students: readonly Actor[],
  name?: string,
  subject?: string,
): Promise<string> {
  const classId = await givenClass(h, teacher, name, subject);
  for (const s of students) await enrol(h, classId, teacher.tenantId, s);
  return classId;
}

/**
 * A ready, unassigned assessment of `teacher` in `classId`: created (as many questions as given
 * asked for), its `questions` generated and delivered as the generation service would. Its id and
 * its questions as the teacher reads them, in order.
 */
export async function readyAssessment(
  h: Harness,
  teacher: Actor,
  classId: string,
  questions: readonly object[] = [MC, TF],
): Promise<{ id: string; questions: FixtureQuestion[] }> {
  const created = await call(h, teacher, 'POST', '/api/assessments', {
    ...VALID_CREATE,
    numberOfQuestions: questions.length,
    classId,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  await deliver(
    h,
    QuestionsGeneratedSchema,
    {
      jobId: randomUUID(),
      assessmentId: id,
      tenantId: teacher.tenantId,
      provider: 'offline',
      questions: [...questions],
    },
    { key: id, tenantId: teacher.tenantId, source: 'generation' },
  );
  const read = await call(h, teacher, 'GET', `/api/assessments/${id}/questions`);
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return { id, questions: read.body as FixtureQuestion[] };
}

/** The teacher's settings of the assessment (PUT /api/assessments/{id}), expected to be taken. */
export async function setSettings(h: Harness, teacher: Actor, id: string, settings: Record<string, unknown>) {
  const set = await call(h, teacher, 'PUT', `/api/assessments/${id}`, settings);
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  return set.body;
}

/** The teacher assigns the assessment (no body: to its own class, as today), expected to be taken. */
export async function assign(h: Harness, teacher: Actor, id: string, body?: unknown) {
  const assigned = await call(h, teacher, 'POST', `/api/assessments/${id}/assign`, body);
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  return assigned.body;
}

/**
 * A ready assessment of `questions` in a new class of `students`, with `settings` (when any), then
 * assigned to the class: its id, class and questions.
 */
export async function assignedAssessment(
  h: Harness,
  teacher: Actor,
  students: readonly Actor[],
  { questions, settings = {} }: { questions?: readonly object[]; settings?: Record<string, unknown> } = {},
): Promise<{ id: string; classId: string; questions: FixtureQuestion[] }> {
  const classId = await classWith(h, teacher, students);
  const a = await readyAssessment(h, teacher, classId, questions);
  if (Object.keys(settings).length > 0) await setSettings(h, teacher, a.id, settings);
  await assign(h, teacher, a.id);
  return { ...a, classId };
}

/** The question of the type among `questions` (the first one). */
export const questionOf = (questions: readonly FixtureQuestion[], type: string): string => {
  const q = questions.find((x) => x.questionType === type);
  if (!q) throw new Error(`no ${type} question`);
  return q.id;
};

/** The student saves each answer (question id → answer; each taken) and submits: the result (201). */
export async function submitAnswers(h: Harness, student: Actor, id: string, answers: Record<string, string>) {
  for (const [questionId, answer] of Object.entries(answers)) {
    const saved = await call(h, student, 'POST', '/api/responses', { assessmentId: id, questionId, answer });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  const result = await call(h, student, 'POST', '/api/results', { assessmentId: id });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body as { id: string } & Record<string, unknown>;
}

export { LONG_LESSON } from './lessons.ts';
