// Everything this service learns from others, in one consumer group (one inbox): class and
// membership copies (class), names (identity), generated questions and practice outcomes
// (generation). Each event is recorded in the inbox in the transaction of its effect: redelivery is
// harmless.
import { inboxConsumer, type InboxHandlers, type SubscribeOptions } from '@checkpoint/events';
import {
  addMember,
  type ClassCopy,
  deleteClass,
  removeMember,
  setClassArchived,
  upsertClass,
  upsertPerson,
} from '../data-access/local-copies.repository.ts';
import type { Db, Tx } from '../data-access/prisma.ts';
import type { AssessmentEvents } from './assessment-events.publisher.ts';
import { generationEventHandlers } from './generation-events.consumer.ts';

export const ASSESSMENT_GROUP = 'assessment';
export const INBOUND_TOPICS = ['checkpoint.identity.v1', 'checkpoint.class.v1', 'checkpoint.generation.v1'];

type ClassFacts = ClassCopy;
const keepClass = (tx: Tx, c: ClassFacts) =>
  upsertClass(tx, {
    classId: c.classId,
    tenantId: c.tenantId,
    teacherId: c.teacherId,
    name: c.name,
    subject: c.subject,
    schoolId: c.schoolId,
    schoolName: c.schoolName,
    grades: c.grades,
    coTeacherIds: c.coTeacherIds,
  });

type UserFacts = { userId: string; tenantId: string; firstName: string; lastName: string; tenantKind: string };
const keepPerson = (tx: Tx, u: UserFacts) =>
  upsertPerson(tx, {
    userId: u.userId,
    tenantId: u.tenantId,
    firstName: u.firstName,
    lastName: u.lastName,
    // The item bank's sharing needs it (an individual account's bank is private); an older
    // publisher's empty kind leaves the one known.
    ...(u.tenantKind ? { tenantKind: u.tenantKind } : {}),
  });

export function classEventHandlers(events: AssessmentEvents): InboxHandlers<Tx> {
  return {
    'checkpoint.class.v1.ClassCreated': (tx, m) => keepClass(tx, m),
    'checkpoint.class.v1.ClassUpdated': (tx, m) => keepClass(tx, m),
    'checkpoint.class.v1.ClassArchived': (tx, m) => setClassArchived(tx, m.classId, true),
    'checkpoint.class.v1.ClassRestored': (tx, m) => setClassArchived(tx, m.classId, false),
    'checkpoint.class.v1.ClassDeleted': async (tx, m) => {
      // Assessments given to it from another class lose that class only.
      await tx.assignment.deleteMany({ where: { classId: m.classId } });
      const homed = await tx.assessment.findMany({
        where: { classId: m.classId },
        include: { assignments: { orderBy: [{ assignedAt: 'asc' }, { classId: 'asc' }], take: 1 } },
      });
      for (const a of homed) {
        const next = a.assignments[0];
        if (next) {
          // Still given to another class of its teacher: that class becomes its own, with the
          // results of every class (none is lost for one class's deletion).
          await tx.assessment.update({ where: { id: a.id }, data: { classId: next.classId, updatedAt: new Date() } });
          await events.updated(tx, { ...a, classId: next.classId });
        } else {
          // Its own class only: it goes with it, with all its data, announced as deleted.
          await events.deleted(tx, a);
          await tx.assessment.delete({ where: { id: a.id } });
        }
      }
      await deleteClass(tx, m.classId);
    },
    'checkpoint.class.v1.StudentEnrolled': (tx, m) =>
      addMember(tx, { classId: m.classId, studentId: m.studentId, tenantId: m.tenantId }),
    'checkpoint.class.v1.StudentRemoved': (tx, m) => removeMember(tx, m.classId, m.studentId),
  };
}

export const userEventHandlers: InboxHandlers<Tx> = {
  'checkpoint.identity.v1.UserRegistered': (tx, m) => keepPerson(tx, m),
  'checkpoint.identity.v1.UserUpdated': (tx, m) => keepPerson(tx, m),
};

export function inboundSubscription(db: Db, events: AssessmentEvents): SubscribeOptions {
  return {
    groupId: ASSESSMENT_GROUP,
    topics: INBOUND_TOPICS,
    ...inboxConsumer<Tx>(db, ASSESSMENT_GROUP, {
      ...userEventHandlers,
      ...classEventHandlers(events),
      ...generationEventHandlers(events),
    }),
  };
}
