// Classes and memberships. Every query is scoped by tenant and by owner (teacher) or member
// (student); a class that is not the caller's is simply not found. Each change writes its event to
// the outbox in the same transaction.
import { randomUUID } from 'node:crypto';
import { isUniqueViolation, uuidv7 } from '@checkpoint/service-kit';
import type { BrowseView, ClassDetails, ClassView, EnrolmentView, MemberView } from '../domain/class.ts';
import { displayName } from '../domain/class.ts';
import type { ClassEvents } from '../messaging/class-events.publisher.ts';
import { insertInvitation, invitationsOf, type CoTeacherInvitationRow } from './co-teacher-invitations.repository.ts';
import { peopleRepository } from './people.repository.ts';
import type { Db, Tx } from './prisma.ts';

const classSelect = {
  id: true,
  tenantId: true,
  teacherId: true,
  name: true,
  subject: true,
  period: true,
  joinCode: true,
  createdAt: true,
  archivedAt: true,
  assessmentCount: true,
  belowStandard: true,
  atStandard: true,
  aboveStandard: true,
  coTeacherIds: true,
  _count: { select: { memberships: true } },
} as const;

type ClassRow = {
  id: string;
  tenantId: string;
  teacherId: string;
  name: string;
  subject: string;
  period: string | null;
  joinCode: string;
  createdAt: Date;
  archivedAt: Date | null;
  assessmentCount: number;
  belowStandard: number;
  atStandard: number;
  aboveStandard: number;
  coTeacherIds: string[];
  _count: { memberships: number };
};

/**
 * A teacher as the caller: tenant + teacher. The owner of a class is the one whose tenant and id
 * it has; a co-teacher is one of its `co_teacher_ids` (a user id names one person across tenants:
 * an individual account's co-teacher has a tenant of their own).
 */
export interface Owner {
  tenantId: string;
  teacherId: string;
}

/** Most co-teachers a class can have, invitations included (SECURITY: limits). */
export const MAX_CO_TEACHERS = 20;

/** A teacher of a class as its teachers' list shows them. */
export interface ClassTeacher {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  owner: boolean;
  /** Absent for a teacher; an invitation by address: waiting for the account, or refused. */
  invitation?: 'pending' | 'refused';
}

/** A class the caller teaches, with whether they own it. */
export interface TaughtClass {
  id: string;
  tenantId: string;
  teacherId: string;
  coTeacherIds: string[];
  owner: boolean;
}

export type AddCoTeacherOutcome = 'added' | 'already-teacher' | 'full';
export type InviteOutcome = CoTeacherInvitationRow | 'already-invited' | 'full';

/** A student as the caller. */
export interface Student {
  tenantId: string;
  studentId: string;
}

export interface JoinableClass {
  id: string;
  tenantId: string;
  teacherId: string;
  name: string;
}

/** 'limit-reached': the teacher's classes already hold the most students allowed (nothing written). */
export type EnrolOutcome = { membershipId: string } | 'already-enrolled' | 'limit-reached';

/**
 * Serializes one teacher's plan checks (count, then insert) so that two requests at once cannot
 * both take the last place.
 */
async function lockTeacherPlan(tx: Tx, teacherId: string): Promise<void> {
  const key = `class:plan:${teacherId}`;
  await tx.$queryRaw`select 1 as locked from (select pg_advisory_xact_lock(hashtextextended(${key}, 0))) as l`;
}

/** The class the caller teaches, its row locked for update (co-teacher changes), or undefined. */
async function lockTaught(tx: Tx, t: Owner, id: string): Promise<TaughtClass | undefined> {
  const rows = await tx.$queryRaw<{ id: string; tenant_id: string; teacher_id: string; co_teacher_ids: string[] }[]>`
    select id, tenant_id, teacher_id, co_teacher_ids from classes
     where id = ${id}::uuid
       and ((tenant_id = ${t.tenantId}::uuid and teacher_id = ${t.teacherId}::uuid)
            or ${t.teacherId}::uuid = any(co_teacher_ids))
       for update`;
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    tenantId: r.tenant_id,
    teacherId: r.teacher_id,
    coTeacherIds: r.co_teacher_ids,
    owner: r.tenant_id === t.tenantId && r.teacher_id === t.teacherId,
  };
}

export class JoinCodeTakenError extends Error {}

/** An invitation as the teachers' list shows it: its id, the address, no name yet. */
export const invitationView = (i: CoTeacherInvitationRow): ClassTeacher => ({
  id: i.id,
  firstName: null,
  lastName: null,
  email: i.email,
  owner: false,
  invitation: i.refused ? 'refused' : 'pending',
});

export type ClassesRepository = ReturnType<typeof classesRepository>;

export function classesRepository(db: Db, events: ClassEvents) {
  const people = peopleRepository(db);

  async function toViews(rows: ClassRow[], caller?: Owner): Promise<ClassView[]> {
    const names = await people.namesOf(rows.map((r) => r.teacherId));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      subject: r.subject,
      period: r.period,
      joinCode: r.joinCode,
      createdAt: r.createdAt.toISOString(),
      teacherId: r.teacherId,
      teacherName: displayName(names.get(r.teacherId)),
      studentCount: r._count.memberships,
      assessmentCount: r.assessmentCount,
      belowStandard: r.belowStandard,
      atStandard: r.atStandard,
      aboveStandard: r.aboveStandard,
      archived: r.archivedAt !== null,
      coTeaching: caller !== undefined && r.coTeacherIds.includes(caller.teacherId),
    }));
  }

  const owned = (owner: Owner, id: string) => ({ id, tenantId: owner.tenantId, teacherId: owner.teacherId });
  /** The classes the caller teaches: owns, or co-teaches. */
  const taughtBy = (t: Owner) => ({
    OR: [{ tenantId: t.tenantId, teacherId: t.teacherId }, { coTeacherIds: { has: t.teacherId } }],
  });
  const taught = (t: Owner, id: string) => ({ id, ...taughtBy(t) });

  async function findOwned(owner: Owner, id: string): Promise<ClassView | undefined> {
    const row = await db.class.findFirst({ where: taught(owner, id), select: classSelect });
    return row ? (await toViews([row], owner))[0] : undefined;
  }

  async function findTaught(t: Owner, id: string, ex: Db | Tx = db): Promise<TaughtClass | undefined> {
    const row = await ex.class.findFirst({
      where: taught(t, id),
      select: { id: true, tenantId: true, teacherId: true, coTeacherIds: true },
    });
    return row ? { ...row, owner: row.tenantId === t.tenantId && row.teacherId === t.teacherId } : undefined;
  }

  /** Writes the class's co-teachers and its ClassUpdated (the full state) in `tx`. */
  async function setCoTeachers(tx: Tx, id: string, coTeacherIds: string[]): Promise<void> {
    const row = await tx.class.update({ where: { id }, data: { coTeacherIds, updatedAt: new Date() } });
    await events.classUpdated(tx, row);
  }

  return {
    async listForTeacher(owner: Owner, archived: boolean): Promise<ClassView[]> {
      const rows = await db.class.findMany({
        where: { ...taughtBy(owner), archivedAt: archived ? { not: null } : null },
        select: classSelect,
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      });
      return toViews(rows, owner);
    },

    /** A class the caller owns or co-teaches. */
    findForTeacher: findOwned,

    /** Who teaches the class (owner, co-teachers), when the caller is one of them. */
    findTaught: (t: Owner, id: string) => findTaught(t, id),

    /**
     * The class's teachers, owner first, then the co-teachers in the order they were added, then
     * the invitations by address (oldest first).
     */
    async listTeachers(cls: TaughtClass): Promise<ClassTeacher[]> {
      const ids = [cls.teacherId, ...cls.coTeacherIds];
      const [known, invitations] = await Promise.all([people.byIds(ids), invitationsOf(db, cls.id)]);
      return [
        ...ids.map((id) => {
          const p = known.get(id);
          return {
            id,
            firstName: p?.firstName ?? null,
            lastName: p?.lastName ?? null,
            email: p?.email ?? null,
            owner: id === cls.teacherId,
          };
        }),
        ...invitations.map(invitationView),
      ];
    },

    /** Whether a student account of the tenant has this address (any case). */
    async isStudentOf(email: string, tenantId: string): Promise<boolean> {
      const n = await db.person.count({
        where: { email: { equals: email, mode: 'insensitive' }, tenantId, role: 'student' },
      });
      return n > 0;
    },

    /**
     * The owner invites an address (lower case) under the class's row lock: 'already-invited' when
     * it is, 'full' when co-teachers and invitations reach MAX_CO_TEACHERS; undefined when the
     * caller no longer owns the class. Writes CoTeacherInvited.
     */
    async inviteCoTeacher(owner: Owner, id: string, email: string): Promise<InviteOutcome | undefined> {
      return db.$transaction(async (tx) => {
        const cls = await lockTaught(tx, owner, id);
        if (!cls?.owner) return undefined;
        const invitations = await invitationsOf(tx, id);
        if (invitations.some((i) => i.email === email)) return 'already-invited';
        if (cls.coTeacherIds.length + invitations.length >= MAX_CO_TEACHERS) return 'full';
        const { name } = await tx.class.findUniqueOrThrow({ where: { id }, select: { name: true } });
        return insertInvitation(tx, { id, tenantId: cls.tenantId, name }, email, owner.teacherId);
      });
    },

    /** The owner withdraws an invitation of the class; false when there is none with that id. */
    async withdrawInvitation(id: string, invitationId: string): Promise<boolean> {
      const removed = await db.coTeacherInvitation.deleteMany({ where: { id: invitationId, classId: id } });
      return removed.count > 0;
    },

    /**
     * A teacher the owner may add, by email (any case): a teacher or admin of the class's tenant,
     * or, when `individuals` (the owner has an individual account), a teacher of an individual
     * account. Undefined for anyone else: no account, a student, another district's teacher.
     */
    async findInvitableTeacher(email: string, tenantId: string, individuals: boolean): Promise<string | undefined> {
      const rows = await db.person.findMany({
        where: {
          email: { equals: email, mode: 'insensitive' },
          role: { in: ['teacher', 'admin'] },
          OR: [{ tenantId }, ...(individuals ? [{ tenantKind: 'individual', role: 'teacher' }] : [])],
        },
        select: { userId: true },
        take: 1,
      });
      return rows[0]?.userId;
    },

    /**
     * Adds a co-teacher under the class's row lock (two adds at once see each other):
     * 'already-teacher' when they own or co-teach it, 'full' at MAX_CO_TEACHERS; undefined when the
     * caller no longer owns the class.
     */
    async addCoTeacher(owner: Owner, id: string, teacherId: string): Promise<AddCoTeacherOutcome | undefined> {
      return db.$transaction(async (tx) => {
        const cls = await lockTaught(tx, owner, id);
        if (!cls?.owner) return undefined;
        if (cls.teacherId === teacherId || cls.coTeacherIds.includes(teacherId)) return 'already-teacher';
        const invited = await tx.coTeacherInvitation.count({ where: { classId: id } });
        if (cls.coTeacherIds.length + invited >= MAX_CO_TEACHERS) return 'full';
        await setCoTeachers(tx, id, [...cls.coTeacherIds, teacherId]);
        return 'added';
      });
    },

    /** Removes a co-teacher under the class's row lock; false when they are not one (any more). */
    async removeCoTeacher(t: Owner, id: string, teacherId: string): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const cls = await lockTaught(tx, t, id);
        if (!cls?.coTeacherIds.includes(teacherId)) return false;
        await setCoTeachers(
          tx,
          id,
          cls.coTeacherIds.filter((c) => c !== teacherId),
        );
        return true;
      });
    },

    tenantKindOf: (userId: string) => people.tenantKindOf(userId),

    /** Whether the tenant keeps its students to its own classes (no policy known = allowed). */
    async ownClassesOnly(tenantId: string): Promise<boolean> {
      const row = await db.tenantJoinPolicy.findUnique({ where: { tenantId }, select: { ownClassesOnly: true } });
      return row?.ownClassesOnly ?? false;
    },

    /**
     * Throws JoinCodeTakenError when `joinCode` is already used (the caller retries with another).
     * With `maxClasses`: 'limit-reached' (nothing written) when the teacher already has that many
     * classes, active or archived (deleted ones are gone).
     */
    async create(
      owner: Owner,
      details: ClassDetails,
      joinCode: string,
      maxClasses?: number,
    ): Promise<ClassView | 'limit-reached'> {
      // Time-ordered: a service whose copy misses it a moment later knows to wait (read-after-create.ts).
      const id = uuidv7();
      try {
        const created = await db.$transaction(async (tx) => {
          if (maxClasses !== undefined) {
            await lockTeacherPlan(tx, owner.teacherId);
            const count = await tx.class.count({ where: { tenantId: owner.tenantId, teacherId: owner.teacherId } });
            if (count >= maxClasses) return false;
          }
          const row = await tx.class.create({
            data: { id, tenantId: owner.tenantId, teacherId: owner.teacherId, ...details, joinCode },
          });
          await events.classCreated(tx, row);
          return true;
        });
        if (!created) return 'limit-reached';
      } catch (err) {
        if (isUniqueViolation(err)) throw new JoinCodeTakenError(joinCode);
        throw err;
      }
      return (await findOwned(owner, id))!;
    },

    async update(owner: Owner, id: string, details: ClassDetails): Promise<ClassView | undefined> {
      const changed = await db.$transaction(async (tx) => {
        const result = await tx.class.updateMany({
          where: taught(owner, id),
          data: { ...details, updatedAt: new Date() },
        });
        if (result.count === 0) return false;
        const row = await tx.class.findUniqueOrThrow({ where: { id } });
        await events.classUpdated(tx, row);
        return true;
      });
      return changed ? findOwned(owner, id) : undefined;
    },

    /** Archives or restores; emits only when the state really changes. */
    async setArchived(owner: Owner, id: string, archived: boolean): Promise<ClassView | undefined> {
      const found = await db.$transaction(async (tx) => {
        const row = await tx.class.findFirst({ where: taught(owner, id) });
        if (!row) return false;
        if ((row.archivedAt !== null) === archived) return true;
        await tx.class.update({
          where: { id },
          data: { archivedAt: archived ? new Date() : null, updatedAt: new Date() },
        });
        await (archived ? events.classArchived(tx, row) : events.classRestored(tx, row));
        return true;
      });
      return found ? findOwned(owner, id) : undefined;
    },

    /**
     * Deletes the class with its memberships (cascade); 'not-found' when the caller does not teach
     * it, 'not-owner' when they co-teach it (only the owner deletes).
     */
    async delete(owner: Owner, id: string): Promise<'deleted' | 'not-found' | 'not-owner'> {
      return db.$transaction(async (tx) => {
        const taughtRow = await findTaught(owner, id, tx);
        if (!taughtRow) return 'not-found';
        if (!taughtRow.owner) return 'not-owner';
        const row = await tx.class.findFirst({ where: owned(owner, id) });
        if (!row) return 'not-found';
        await tx.class.delete({ where: { id } });
        await events.classDeleted(tx, row);
        return 'deleted';
      });
    },

    /**
     * The class's members, oldest first; undefined when the class is not the owner's. A student of
     * another district (or school) who joined by code is shown by name only: their district's
     * address is not the teacher's to see (docs/security.md, finding 10).
     */
    async listMembers(owner: Owner, classId: string): Promise<MemberView[] | undefined> {
      const cls = await db.class.findFirst({ where: taught(owner, classId), select: { id: true, tenantId: true } });
      if (!cls) return undefined;
      const rows = await db.membership.findMany({
        where: { classId, tenantId: cls.tenantId },
        orderBy: [{ joinedAt: 'asc' }, { id: 'asc' }],
      });
      const known = await people.byIds(rows.map((r) => r.studentId));
      return rows.map((r) => {
        const p = known.get(r.studentId);
        return {
          id: r.id,
          joinedAt: r.joinedAt.toISOString(),
          student: {
            id: r.studentId,
            firstName: p?.firstName ?? null,
            lastName: p?.lastName ?? null,
            email: p && mayShowEmail(cls.tenantId, r.studentTenantId, p.tenantKind) ? p.email : null,
            profileImageUrl: null,
          },
        };
      });
    },

    /** 'no-class' when the class is not the owner's, 'no-member' when the student is not in it. */
    async removeMember(
      owner: Owner,
      classId: string,
      studentId: string,
    ): Promise<'removed' | 'no-class' | 'no-member'> {
      return db.$transaction(async (tx) => {
        const cls = await tx.class.findFirst({ where: taught(owner, classId), select: { id: true } });
        if (!cls) return 'no-class';
        const m = await tx.membership.findUnique({ where: { classId_studentId: { classId, studentId } } });
        if (!m) return 'no-member';
        // A concurrent removal may have taken it since: nothing to delete is 'no-member', not an error.
        const { count } = await tx.membership.deleteMany({ where: { id: m.id } });
        if (count === 0) return 'no-member';
        await events.studentRemoved(tx, m);
        return 'removed';
      });
    },

    /** An active class by its (normalized) join code, in any tenant: the code is the invitation. */
    async findActiveByJoinCode(joinCode: string): Promise<JoinableClass | undefined> {
      const row = await db.class.findFirst({
        where: { joinCode, archivedAt: null },
        select: { id: true, tenantId: true, teacherId: true, name: true },
      });
      return row ?? undefined;
    },

    /** An active class of the student's own tenant (browse and join-direct). */
    async findActiveInTenant(tenantId: string, id: string): Promise<JoinableClass | undefined> {
      const row = await db.class.findFirst({
        where: { id, tenantId, archivedAt: null },
        select: { id: true, tenantId: true, teacherId: true, name: true },
      });
      return row ?? undefined;
    },

    /**
     * With `maxStudents`: 'limit-reached' (nothing written) when the teacher's classes already hold
     * that many distinct students and this student is not one of them.
     */
    async enrol(cls: JoinableClass, student: Student, maxStudents?: number): Promise<EnrolOutcome> {
      try {
        return await db.$transaction(async (tx) => {
          if (maxStudents !== undefined) await lockTeacherPlan(tx, cls.teacherId);
          const existing = await tx.membership.findUnique({
            where: { classId_studentId: { classId: cls.id, studentId: student.studentId } },
            select: { id: true },
          });
          if (existing) return 'already-enrolled' as const;
          if (maxStudents !== undefined) {
            const rows = await tx.$queryRaw<{ counted: boolean; total: number }[]>`
              select coalesce(bool_or(m.student_id = ${student.studentId}::uuid), false) as counted,
                     count(distinct m.student_id)::int as total
                from memberships m
                join classes c on c.id = m.class_id
               where c.tenant_id = ${cls.tenantId}::uuid and c.teacher_id = ${cls.teacherId}::uuid`;
            const { counted, total } = rows[0]!;
            if (!counted && total >= maxStudents) return 'limit-reached' as const;
          }
          const m = await tx.membership.create({
            data: {
              id: randomUUID(),
              classId: cls.id,
              tenantId: cls.tenantId,
              studentId: student.studentId,
              studentTenantId: student.tenantId,
            },
          });
          await events.studentEnrolled(tx, m);
          return { membershipId: m.id };
        });
      } catch (err) {
        // Two joins at once: the unique (class_id, student_id) index lets only one in.
        if (isUniqueViolation(err)) return 'already-enrolled';
        throw err;
      }
    },

    /** The student's enrolments in active classes, newest first. */
    async listEnrolments(student: Student): Promise<EnrolmentView[]> {
      const rows = await db.membership.findMany({
        where: { studentId: student.studentId, studentTenantId: student.tenantId, class: { archivedAt: null } },
        select: {
          id: true,
          classId: true,
          joinedAt: true,
          class: { select: { name: true, period: true, subject: true, teacherId: true } },
        },
        orderBy: [{ joinedAt: 'desc' }, { id: 'asc' }],
      });
      const names = await people.namesOf(rows.map((r) => r.class.teacherId));
      return rows.map((r) => ({
        id: r.id,
        classId: r.classId,
        joinedAt: r.joinedAt.toISOString(),
        class: {
          name: r.class.name,
          period: r.class.period,
          subject: r.class.subject,
          teacherName: displayName(names.get(r.class.teacherId)),
        },
      }));
    },

    /** Active classes of the student's tenant that the student has not joined. */
    async browse(student: Student, limit: number): Promise<BrowseView[]> {
      const rows = await db.class.findMany({
        where: {
          tenantId: student.tenantId,
          archivedAt: null,
          memberships: { none: { studentId: student.studentId } },
        },
        select: classSelect,
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        take: limit,
      });
      return (await toViews(rows)).map((c) => ({
        id: c.id,
        name: c.name,
        period: c.period,
        subject: c.subject,
        teacherId: c.teacherId,
        teacherName: c.teacherName,
        studentCount: c.studentCount,
      }));
    },
  };
}

/**
 * Whether a class's teacher may see a member's e-mail: always for a student of the class's own
 * tenant; for a student of another district or school (joined by code) not, since that district
 * has not shared it. Individual accounts (no district) and students whose tenant kind is not known
 * yet keep the behaviour they had.
 */
function mayShowEmail(classTenantId: string, studentTenantId: string, studentTenantKind: string | null): boolean {
  if (studentTenantId === classTenantId) return true;
  return studentTenantKind !== 'district' && studentTenantKind !== 'school';
}
