// identity's StudentAccountCreated: a teacher of the class made a student account without email for
// it (docs/adr/015-students-without-email.md) → the student is enrolled as a join by code would
// (StudentEnrolled through this service's outbox), in the class's tenant. No join policy applies:
// the account is the class's tenant's, made by its teacher. A class gone or archived since enrols
// nobody; a redelivery finds the membership and writes nothing.
import type { InboxHandlers, StudentAccountCreated } from '@checkpoint/events';
import { uuidv7 } from '@checkpoint/service-kit';
import { z } from 'zod';
import type { Tx } from '../data-access/prisma.ts';
import { classEventsPublisher } from './class-events.publisher.ts';

const facts = z.object({ userId: z.uuid(), tenantId: z.uuid(), classId: z.uuid(), createdBy: z.uuid() });

async function enrol(tx: Tx, m: StudentAccountCreated): Promise<void> {
  const parsed = facts.safeParse(m);
  if (!parsed.success) return;
  const { userId, tenantId, classId, createdBy } = parsed.data;
  const cls = await tx.class.findUnique({ where: { id: classId } });
  if (!cls || cls.archivedAt || cls.tenantId !== tenantId) return;
  // Only a teacher of the class makes its accounts (identity checked; the class says so too).
  if (cls.teacherId !== createdBy && !cls.coTeacherIds.includes(createdBy)) return;
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `insert into memberships (id, class_id, tenant_id, student_id, student_tenant_id)
     values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $3::uuid)
     on conflict (class_id, student_id) do nothing returning id`,
    uuidv7(),
    classId,
    tenantId,
    userId,
  );
  if (rows[0])
    await classEventsPublisher().studentEnrolled(tx, { id: rows[0].id, classId, tenantId, studentId: userId });
}

export const studentAccountHandlers: InboxHandlers<Tx> = {
  'checkpoint.identity.v1.StudentAccountCreated': (tx, m) => enrol(tx, m),
};
