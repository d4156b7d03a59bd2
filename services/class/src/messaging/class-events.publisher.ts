// This service's own facts (proto/class/v1), written to the outbox in the caller's transaction;
// the relay publishes them after commit. Key = class id, so one class's events stay in order.
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
  return {
    classCreated: (tx: SqlExecutor, c: ClassFacts) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema: ClassCreatedSchema,
        message: create(ClassCreatedSchema, details(c)),
        key: c.id,
        tenantId: c.tenantId,
      }),
    classUpdated: (tx: SqlExecutor, c: ClassFacts) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema: ClassUpdatedSchema,
        message: create(ClassUpdatedSchema, details(c)),
        key: c.id,
        tenantId: c.tenantId,
      }),
    classArchived: (tx: SqlExecutor, c: ClassFacts) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema: ClassArchivedSchema,
        message: create(ClassArchivedSchema, ref(c)),
        key: c.id,
        tenantId: c.tenantId,
      }),
    classRestored: (tx: SqlExecutor, c: ClassFacts) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema: ClassRestoredSchema,
        message: create(ClassRestoredSchema, ref(c)),
        key: c.id,
        tenantId: c.tenantId,
      }),
    classDeleted: (tx: SqlExecutor, c: ClassFacts) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema: ClassDeletedSchema,
        message: create(ClassDeletedSchema, ref(c)),
        key: c.id,
        tenantId: c.tenantId,
      }),
    studentEnrolled: (tx: SqlExecutor, m: MembershipFacts) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema: StudentEnrolledSchema,
        message: create(StudentEnrolledSchema, membership(m)),
        key: m.classId,
        tenantId: m.tenantId,
      }),
    studentRemoved: (tx: SqlExecutor, m: MembershipFacts) =>
      enqueueEvent(tx, {
        source: SOURCE,
        schema: StudentRemovedSchema,
        message: create(StudentRemovedSchema, membership(m)),
        key: m.classId,
        tenantId: m.tenantId,
      }),
  };
}
