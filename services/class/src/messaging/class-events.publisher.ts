// This service's own facts (proto/class/v1), written to the outbox in the caller's transaction;
// the relay publishes them after commit. Key = class id, so one class's events stay in order.
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import {
  ClassArchivedSchema,
  ClassCreatedSchema,
  ClassDeletedSchema,
  ClassRestoredSchema,
  ClassUpdatedSchema,
  create,
  enqueueEvent,
  StudentEnrolledSchema,
  StudentRemovedSchema,
  type SqlExecutor,
} from '@checkpoint/events';

export const SOURCE = 'class';

export interface ClassFacts {
  id: string;
  tenantId: string;
  teacherId: string;
  name: string;
  subject: string;
  period: string | null;
  joinCode: string;
  schoolId: string;
  schoolName: string;
  grades: string[];
  /** Its co-teachers: every ClassCreated/ClassUpdated carries them (the full state). */
  coTeacherIds: string[];
}

export interface MembershipFacts {
  id: string;
  classId: string;
  tenantId: string;
  studentId: string;
}

export type ClassEvents = ReturnType<typeof classEventsPublisher>;

export function classEventsPublisher() {
  const details = (c: ClassFacts) => ({
    classId: c.id,
    tenantId: c.tenantId,
    teacherId: c.teacherId,
    name: c.name,
    subject: c.subject,
    period: c.period ?? '',
    joinCode: c.joinCode,
    schoolId: c.schoolId,
    schoolName: c.schoolName,
    grades: c.grades,
    coTeacherIds: c.coTeacherIds,
    occurredAt: timestampNow(),
  });
  const ref = (c: Pick<ClassFacts, 'id' | 'tenantId' | 'teacherId'>) => ({
    classId: c.id,
    tenantId: c.tenantId,
    teacherId: c.teacherId,
    occurredAt: timestampNow(),
  });
  const membership = (m: MembershipFacts) => ({
    classId: m.classId,
    tenantId: m.tenantId,
    studentId: m.studentId,
    membershipId: m.id,
    occurredAt: timestampNow(),
  });
  /** One event of one class, into the outbox of the caller's transaction. */
  const emit =
    <D extends DescMessage, F extends { tenantId: string }>(
      schema: D,
      key: (facts: F) => string,
      fields: (facts: F) => MessageInitShape<D>,
    ) =>
    (tx: SqlExecutor, facts: F) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema,
        message: create(schema, fields(facts)),
        key: key(facts),
        tenantId: facts.tenantId,
      });
  const byClass = (c: ClassFacts) => c.id;
  const byMembership = (m: MembershipFacts) => m.classId;
  return {
    classCreated: emit(ClassCreatedSchema, byClass, details),
    classUpdated: emit(ClassUpdatedSchema, byClass, details),
    classArchived: emit(ClassArchivedSchema, byClass, ref),
    classRestored: emit(ClassRestoredSchema, byClass, ref),
    classDeleted: emit(ClassDeletedSchema, byClass, ref),
    studentEnrolled: emit(StudentEnrolledSchema, byMembership, membership),
    studentRemoved: emit(StudentRemovedSchema, byMembership, membership),
  };
}
