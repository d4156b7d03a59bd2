// Identity's copy of the class service's classes, for class-code sign-in and login cards (docs/adr/
// 015-students-without-email.md): each class's tenant, teachers (owner and co-teachers), join code
// and whether it is active, and its members. Written in the inbox's transaction, so a redelivery is
// harmless; classes made before this copy existed are learned at their next change.
import type { InboxHandlers } from '@checkpoint/events';
import type { Tx } from '../data-access/prisma.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ClassDetails {
  classId: string;
  tenantId: string;
  teacherId: string;
  joinCode: string;
  coTeacherIds: string[];
}

async function upsertClass(tx: Tx, m: ClassDetails): Promise<void> {
  if (!UUID.test(m.classId) || !UUID.test(m.tenantId) || !UUID.test(m.teacherId)) return;
  const teacherIds = [m.teacherId, ...m.coTeacherIds.filter((id) => UUID.test(id) && id !== m.teacherId)];
  await tx.loginClass.upsert({
    where: { classId: m.classId },
    create: { classId: m.classId, tenantId: m.tenantId, teacherIds, joinCode: m.joinCode, updatedAt: new Date() },
    update: { tenantId: m.tenantId, teacherIds, joinCode: m.joinCode, updatedAt: new Date() },
  });
}

async function setActive(tx: Tx, classId: string, active: boolean): Promise<void> {
  if (!UUID.test(classId)) return;
  await tx.loginClass.updateMany({ where: { classId }, data: { active, updatedAt: new Date() } });
}

export const loginClassHandlers: InboxHandlers<Tx> = {
  'checkpoint.class.v1.ClassCreated': (tx, m) => upsertClass(tx, m),
  'checkpoint.class.v1.ClassUpdated': (tx, m) => upsertClass(tx, m),
  'checkpoint.class.v1.ClassArchived': (tx, m) => setActive(tx, m.classId, false),
  'checkpoint.class.v1.ClassRestored': (tx, m) => setActive(tx, m.classId, true),
  'checkpoint.class.v1.ClassDeleted': async (tx, m) => {
    if (!UUID.test(m.classId)) return;
    await tx.loginClassMember.deleteMany({ where: { classId: m.classId } });
    await tx.loginClass.deleteMany({ where: { classId: m.classId } });
    // A deleted class's cards can never sign anyone in again.
    await tx.loginCard.updateMany({ where: { classId: m.classId, revokedAt: null }, data: { revokedAt: new Date() } });
  },
  'checkpoint.class.v1.StudentEnrolled': async (tx, m) => {
    if (!UUID.test(m.classId) || !UUID.test(m.studentId)) return;
    await tx.loginClassMember.upsert({
      where: { classId_studentId: { classId: m.classId, studentId: m.studentId } },
      create: { classId: m.classId, studentId: m.studentId },
      update: {},
    });
  },
  'checkpoint.class.v1.StudentRemoved': async (tx, m) => {
    if (!UUID.test(m.classId) || !UUID.test(m.studentId)) return;
    await tx.loginClassMember.deleteMany({ where: { classId: m.classId, studentId: m.studentId } });
  },
};
