// Test helpers: the assessment service on a fresh database with an in-process bus, calls with
// gateway caller headers, other services' events delivered through the bus, and direct SQL.
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import {
  buildHeaders,
  ClassCreatedSchema,
  ClassDeletedSchema,
  create,
  eventRegistry,
  fromBinary,
  StudentEnrolledSchema,
  StudentRemovedSchema,
  toBinary,
  topicFor,
} from '@checkpoint/events';

import { startServiceForTest, type Actor, type Harness } from '@checkpoint/testkit';

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

export { LONG_LESSON } from './lessons.ts';
