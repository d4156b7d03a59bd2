// The local copies this service keeps from other services' events (classes, memberships, people),
// written inside the consumer's inbox transaction.
import type { Tx } from './prisma.ts';

export interface ClassCopy {
  classId: string;
  tenantId: string;
  teacherId: string;
  name: string;
  subject: string;
  /** The class's school (roster org sourcedId, and its name) and grades; empty: none. */
  schoolId: string;
  schoolName: string;
  grades: string[];
  /** Its co-teachers (empty from publishers older than the field). */
  coTeacherIds: string[];
}

export async function upsertClass(tx: Tx, c: ClassCopy): Promise<void> {
  const { classId, ...rest } = c;
  await tx.classRef.upsert({
    where: { classId },
    create: { classId, ...rest },
    update: { ...rest, updatedAt: new Date() },
  });
}

export async function setClassArchived(tx: Tx, classId: string, archived: boolean): Promise<void> {
  await tx.classRef.updateMany({ where: { classId }, data: { archived, updatedAt: new Date() } });
}

/** Removes the class copy and its memberships; the caller deletes its assessments first. */
export async function deleteClass(tx: Tx, classId: string): Promise<void> {
  await tx.membership.deleteMany({ where: { classId } });
  await tx.classRef.deleteMany({ where: { classId } });
}

export async function addMember(tx: Tx, m: { classId: string; studentId: string; tenantId: string }): Promise<void> {
  await tx.membership.upsert({
    where: { classId_studentId: { classId: m.classId, studentId: m.studentId } },
    create: m,
    update: {},
  });
}

export async function removeMember(tx: Tx, classId: string, studentId: string): Promise<void> {
  await tx.membership.deleteMany({ where: { classId, studentId } });
}

export async function upsertPerson(
  tx: Tx,
  p: { userId: string; tenantId: string; firstName: string; lastName: string; tenantKind?: string },
): Promise<void> {
  const { userId, ...rest } = p;
  await tx.person.upsert({
    where: { userId },
    create: { userId, ...rest },
    update: { ...rest, updatedAt: new Date() },
  });
}
