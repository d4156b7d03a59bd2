// Student accounts without email, identity's copy of the classes they sign in through, and their
// login cards (docs/adr/015-students-without-email.md). SQL only: the rules are in
// domain/student-logins.use-case.ts.
import { isUniqueViolation } from '@checkpoint/service-kit';
import type { Db, Tx } from './prisma.ts';
import { toRecord, userSelect } from './users.repository.ts';
import type { UserRecord } from '../domain/user.ts';

export class DuplicateUsernameError extends Error {}

export interface LoginClassRow {
  classId: string;
  tenantId: string;
  teacherIds: string[];
  joinCode: string;
  active: boolean;
}

export interface StudentLoginRow {
  userId: string;
  firstName: string;
  lastName: string;
  username: string;
  secretKind: 'picture' | 'words';
  createdAt: Date;
  updatedAt: Date;
}

export interface NewStudentLogin {
  id: string;
  tenantId: string;
  classId: string;
  firstName: string;
  lastName: string;
  username: string;
  secretKind: 'picture' | 'words';
  secretHash: string;
  createdBy: string;
}

/** A login for an account that exists (rostered or from an LMS, without a mailbox). */
export interface NewLogin {
  userId: string;
  tenantId: string;
  username: string;
  secretKind: 'picture' | 'words';
  secretHash: string;
  createdBy: string;
}

/** A student of a class who has no mailbox and no picture or words yet. */
export interface WithoutSignInRow {
  id: string;
  firstName: string;
  lastName: string;
}

export interface NewCard {
  id: string;
  userId: string;
  secretHash: string;
  expiresAt: Date;
}

const loginSelect = {
  userId: true,
  username: true,
  secretKind: true,
  createdAt: true,
  updatedAt: true,
  user: { select: { firstName: true, lastName: true, disabledAt: true } },
} as const;

function toLoginRow(row: {
  userId: string;
  username: string;
  secretKind: string;
  createdAt: Date;
  updatedAt: Date;
  user: { firstName: string; lastName: string };
}): StudentLoginRow {
  return {
    userId: row.userId,
    firstName: row.user.firstName,
    lastName: row.user.lastName,
    username: row.username,
    secretKind: row.secretKind as StudentLoginRow['secretKind'],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function studentLoginsRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return db.$transaction(work);
    },

    async findClass(classId: string): Promise<LoginClassRow | undefined> {
      const row = await db.loginClass.findUnique({ where: { classId } });
      return row ?? undefined;
    },

    async findClassByCode(joinCode: string): Promise<LoginClassRow | undefined> {
      const row = await db.loginClass.findFirst({ where: { joinCode, active: true } });
      return row ?? undefined;
    },

    /** The class's students that have a student login (enabled accounts), by first name. */
    async listForClass(classId: string): Promise<StudentLoginRow[]> {
      const members = await db.loginClassMember.findMany({ where: { classId }, select: { studentId: true } });
      if (members.length === 0) return [];
      const rows = await db.studentLogin.findMany({
        where: { userId: { in: members.map((m) => m.studentId) }, user: { disabledAt: null } },
        select: loginSelect,
        orderBy: [{ user: { firstName: 'asc' } }, { user: { lastName: 'asc' } }],
      });
      return rows.map(toLoginRow);
    },

    /**
     * The class's enabled students whose address reaches no mailbox (none, or a `.invalid`
     * placeholder) and who have no student login yet: they cannot sign in until given one.
     */
    async withoutSignIn(classId: string): Promise<WithoutSignInRow[]> {
      return db.$queryRaw<WithoutSignInRow[]>`
        select u.id, u.first_name as "firstName", u.last_name as "lastName"
          from login_class_members m
          join users u on u.id = m.student_id
         where m.class_id = ${classId}::uuid
           and u.role = 'student' and u.disabled_at is null
           and (u.email is null or lower(u.email) like '%.invalid')
           and not exists (select 1 from student_logins l where l.user_id = u.id)
         order by lower(u.first_name), lower(u.last_name), u.id`;
    },

    async findLogin(userId: string): Promise<(StudentLoginRow & { secretHash: string }) | undefined> {
      const row = await db.studentLogin.findUnique({
        where: { userId },
        select: { ...loginSelect, secretHash: true },
      });
      return row ? { ...toLoginRow(row), secretHash: row.secretHash } : undefined;
    },

    async isMember(classId: string, studentId: string): Promise<boolean> {
      const row = await db.loginClassMember.findUnique({ where: { classId_studentId: { classId, studentId } } });
      return row !== null;
    },

    async findUser(userId: string): Promise<UserRecord | undefined> {
      const row = await db.user.findUnique({ where: { id: userId }, select: userSelect });
      return row ? toRecord(row) : undefined;
    },

    /** The account (no email, no password), its login and its membership of the class. */
    async create(tx: Tx, input: NewStudentLogin): Promise<UserRecord> {
      try {
        // The use case checked the username first; a race ends here as a unique violation.
        const row = await tx.user.create({
          data: {
            id: input.id,
            tenantId: input.tenantId,
            email: null,
            firstName: input.firstName,
            lastName: input.lastName,
            role: 'student',
            studentLogin: {
              create: {
                tenantId: input.tenantId,
                username: input.username,
                secretKind: input.secretKind,
                secretHash: input.secretHash,
                createdBy: input.createdBy,
              },
            },
          },
          select: userSelect,
        });
        await tx.loginClassMember.upsert({
          where: { classId_studentId: { classId: input.classId, studentId: input.id } },
          create: { classId: input.classId, studentId: input.id },
          update: {},
        });
        return toRecord(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateUsernameError();
        throw err;
      }
    },

    async usernameTaken(tenantId: string, username: string): Promise<boolean> {
      const rows = await db.$queryRaw<{ one: number }[]>`
        select 1 as one from student_logins where tenant_id = ${tenantId}::uuid and lower(username) = ${username} limit 1`;
      return rows.length > 0;
    },

    /** The login row of an existing account; a username taken meanwhile is a DuplicateUsernameError. */
    async addLogin(tx: Tx, input: NewLogin): Promise<void> {
      try {
        await tx.studentLogin.create({ data: input });
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateUsernameError();
        throw err;
      }
    },

    async rename(tx: Tx, userId: string, username: string): Promise<void> {
      try {
        await tx.studentLogin.update({ where: { userId }, data: { username, updatedAt: new Date() } });
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateUsernameError();
        throw err;
      }
    },

    async setSecret(tx: Tx, userId: string, secretKind: 'picture' | 'words', secretHash: string): Promise<void> {
      await tx.studentLogin.update({ where: { userId }, data: { secretKind, secretHash, updatedAt: new Date() } });
    },

    /** Revokes the class's cards still in force; how many. */
    async revokeCards(tx: Tx | Db, classId: string, now: Date): Promise<number> {
      const { count } = await tx.loginCard.updateMany({
        where: { classId, revokedAt: null, expiresAt: { gt: now } },
        data: { revokedAt: now },
      });
      return count;
    },

    async createCards(tx: Tx, classId: string, createdBy: string, cards: NewCard[]): Promise<void> {
      await tx.loginCard.createMany({ data: cards.map((c) => ({ ...c, classId, createdBy })) });
    },

    async findCard(secretHash: string) {
      return (await db.loginCard.findUnique({ where: { secretHash } })) ?? undefined;
    },

    /** The cards of the class in force: how many and until when. */
    async cardsInForce(classId: string, now: Date): Promise<{ count: number; expiresAt: Date | null }> {
      const agg = await db.loginCard.aggregate({
        where: { classId, revokedAt: null, expiresAt: { gt: now } },
        _count: { _all: true },
        _max: { expiresAt: true },
      });
      return { count: agg._count._all, expiresAt: agg._max.expiresAt };
    },
  };
}

export type StudentLoginsRepository = ReturnType<typeof studentLoginsRepository>;
