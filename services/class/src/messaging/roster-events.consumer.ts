// identity's RosterClassSynced (a district's OneRoster import) → the class it names, found by
// (tenant, roster source id): created on the first sync (join code generated as usual, owned by the
// first teacher; the Free Trial limits do not apply to a district), title/subject/period and
// owner followed, student memberships set to exactly the roster's, archived when no longer active.
// Every change goes through this service's outbox as a teacher's action would (ClassCreated,
// StudentEnrolled, StudentRemoved…), so analytics and assessment follow. A redelivery finds
// everything already as the event says and writes nothing.
import type { InboxHandlers } from '@checkpoint/events';
import { uuidv7 } from '@checkpoint/service-kit';
import type { Tx } from '../data-access/prisma.ts';
import { generateJoinCode } from '../domain/join-code.ts';
import { classEventsPublisher, type ClassFacts } from './class-events.publisher.ts';

export interface RosterClassFacts {
  tenantId: string;
  sourceId: string;
  title: string;
  subject: string;
  period: string;
  teacherUserIds: string[];
  studentUserIds: string[];
  active: boolean;
  schoolId: string;
  schoolName: string;
  grades: string[];
}

const JOIN_CODE_ATTEMPTS = 10;

export async function syncRosterClass(tx: Tx, m: RosterClassFacts): Promise<void> {
  const events = classEventsPublisher();
  const teacherId = m.teacherUserIds[0];
  const details = {
    name: m.title,
    subject: m.subject,
    period: m.period || null,
    schoolId: m.schoolId,
    schoolName: m.schoolName,
    grades: m.grades,
  };
  let cls = await tx.class.findFirst({ where: { tenantId: m.tenantId, rosterSourceId: m.sourceId } });
  if (!cls) {
    // Nothing to archive, or no one to own it: nothing to create.
    if (!m.active || !teacherId) return;
    const id = uuidv7();
    for (let attempt = 0; !cls; attempt++) {
      if (attempt === JOIN_CODE_ATTEMPTS) throw new Error('no free join code after 10 attempts');
      // A taken code must not abort the transaction: insert … on conflict do nothing.
      const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
        `insert into classes (id, tenant_id, teacher_id, name, subject, period, join_code, roster_source_id,
                              school_id, school_name, grades)
         values ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7, $8, $9, $10, $11::text[])
         on conflict (join_code) do nothing returning id`,
        id,
        m.tenantId,
        teacherId,
        details.name,
        details.subject,
        details.period,
        generateJoinCode(),
        m.sourceId,
        details.schoolId,
        details.schoolName,
        details.grades,
      );
      if (rows.length) cls = await tx.class.findUniqueOrThrow({ where: { id } });
    }
    await events.classCreated(tx, facts(cls));
  } else {
    const owner = teacherId ?? cls.teacherId;
    if (
      cls.name !== details.name ||
      cls.subject !== details.subject ||
      cls.period !== details.period ||
      cls.schoolId !== details.schoolId ||
      cls.schoolName !== details.schoolName ||
      cls.grades.join('\n') !== details.grades.join('\n') ||
      cls.teacherId !== owner
    ) {
      cls = await tx.class.update({
        where: { id: cls.id },
        // A co-teacher the roster makes the owner is the owner only.
        data: {
          ...details,
          teacherId: owner,
          coTeacherIds: cls.coTeacherIds.filter((id) => id !== owner),
          updatedAt: new Date(),
        },
      });
      await events.classUpdated(tx, facts(cls));
    }
  }

  if (!m.active) {
    if (!cls.archivedAt) {
      cls = await tx.class.update({ where: { id: cls.id }, data: { archivedAt: new Date() } });
      await events.classArchived(tx, facts(cls));
    }
    return;
  }
  if (cls.archivedAt) {
    cls = await tx.class.update({ where: { id: cls.id }, data: { archivedAt: null } });
    await events.classRestored(tx, facts(cls));
  }

  // Memberships: exactly the roster's students.
  const wanted = new Set(m.studentUserIds);
  const current = await tx.membership.findMany({ where: { classId: cls.id } });
  for (const member of current) {
    if (wanted.has(member.studentId)) continue;
    const { count } = await tx.membership.deleteMany({ where: { id: member.id } });
    if (count) await events.studentRemoved(tx, member);
  }
  const have = new Set(current.map((c) => c.studentId));
  for (const studentId of wanted) {
    if (have.has(studentId)) continue;
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      `insert into memberships (id, class_id, tenant_id, student_id, student_tenant_id)
       values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $3::uuid)
       on conflict (class_id, student_id) do nothing returning id`,
      uuidv7(),
      cls.id,
      m.tenantId,
      studentId,
    );
    if (rows[0]) await events.studentEnrolled(tx, { id: rows[0].id, classId: cls.id, tenantId: m.tenantId, studentId });
  }
}

function facts(c: {
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
  coTeacherIds: string[];
}): ClassFacts {
  return {
    id: c.id,
    tenantId: c.tenantId,
    teacherId: c.teacherId,
    name: c.name,
    subject: c.subject,
    period: c.period,
    joinCode: c.joinCode,
    schoolId: c.schoolId,
    schoolName: c.schoolName,
    grades: c.grades,
    coTeacherIds: c.coTeacherIds,
  };
}

export const rosterEventHandlers: InboxHandlers<Tx> = {
  'checkpoint.identity.v1.RosterClassSynced': (tx, m) => syncRosterClass(tx, m),
};
