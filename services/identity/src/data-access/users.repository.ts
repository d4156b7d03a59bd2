// Users, their tenants and password credentials.
import { randomUUID } from 'node:crypto';
import type { TenantKind, UserRecord, UserRole, Preferences } from '../domain/user.ts';
import { isUniqueViolation } from '@checkpoint/service-kit';
import type { Db, Tx } from './prisma.ts';

/** The columns of a UserRecord (other repositories of users select the same). */
export const userSelect = {
  id: true,
  tenantId: true,
  email: true,
  firstName: true,
  lastName: true,
  role: true,
  profileImageUrl: true,
  preferences: true,
  createdAt: true,
  disabledAt: true,
  emailVerifiedAt: true,
  locale: true,
  tenant: { select: { kind: true } },
} as const;

type UserRow = {
  id: string;
  tenantId: string;
  /** Null for a student account without email (student_logins): '' in a UserRecord. */
  email: string | null;
  firstName: string;
  lastName: string;
  role: string;
  profileImageUrl: string | null;
  preferences: unknown;
  createdAt: Date;
  disabledAt: Date | null;
  emailVerifiedAt: Date | null;
  locale: string | null;
  tenant: { kind: string };
};

export function toRecord(row: UserRow): UserRecord {
  const { tenant, ...rest } = row;
  return {
    ...rest,
    email: rest.email ?? '',
    role: rest.role as UserRole,
    tenantKind: tenant.kind as TenantKind,
    emailVerified: rest.emailVerifiedAt !== null,
  };
}

export interface NewUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  profileImageUrl?: string | null;
  passwordHash?: string;
  /** Join this tenant; otherwise a new tenant is created from `newTenant`. */
  tenantId?: string;
  newTenant?: { name: string; kind: TenantKind; emailDomains?: string[] };
  externalIdentity?: { issuer: string; subject: string; email: string };
  /** Set when the address is already proven (sign-up by link, invitation, roster, SSO claim). */
  emailVerifiedAt?: Date;
  /** The interface language, when known at creation (the sign-up form's). */
  locale?: string;
}

export class DuplicateEmailError extends Error {}

export function usersRepository(db: Db) {
  return {
    async findById(id: string): Promise<UserRecord | undefined> {
      const row = await db.user.findUnique({ where: { id }, select: userSelect });
      return row ? toRecord(row) : undefined;
    },

    /** `email` must be normalized (stored emails are lower-case). */
    async findByEmail(email: string): Promise<UserRecord | undefined> {
      const row = await db.user.findFirst({ where: { email }, select: userSelect });
      return row ? toRecord(row) : undefined;
    },

    async findPasswordHash(userId: string): Promise<string | undefined> {
      const row = await db.credential.findUnique({ where: { userId }, select: { passwordHash: true } });
      return row?.passwordHash;
    },

    async findByExternalIdentity(issuer: string, subject: string): Promise<UserRecord | undefined> {
      const row = await db.externalIdentity.findUnique({
        where: { issuer_subject: { issuer, subject } },
        select: { user: { select: userSelect } },
      });
      return row ? toRecord(row.user) : undefined;
    },

    async linkExternalIdentity(
      userId: string,
      identity: { issuer: string; subject: string; email: string },
    ): Promise<void> {
      await db.externalIdentity.upsert({
        where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
        create: { userId, ...identity },
        update: {},
      });
    },

    /** The district or school tenant whose email domains include `domain`. */
    async findTenantIdByDomain(domain: string): Promise<string | undefined> {
      if (!domain) return undefined;
      const row = await db.tenant.findFirst({
        where: { kind: { in: ['district', 'school'] }, emailDomains: { has: domain } },
        select: { id: true },
        orderBy: { createdAt: 'asc' },
      });
      return row?.id;
    },

    async findTenant(id: string): Promise<{ id: string; kind: TenantKind; emailDomains: string[] } | undefined> {
      const row = await db.tenant.findUnique({ where: { id }, select: { id: true, kind: true, emailDomains: true } });
      return row ? { ...row, kind: row.kind as TenantKind } : undefined;
    },

    async countUsers(): Promise<number> {
      return db.user.count();
    },

    /**
     * Creates the user (and its tenant, credential, external identity) and runs `inSameTransaction`
     * (the outbox write) in the same transaction.
     */
    async create(input: NewUser, inSameTransaction: (tx: Tx, user: UserRecord) => Promise<void>): Promise<UserRecord> {
      try {
        return await db.$transaction(async (tx) => {
          let tenantId = input.tenantId;
          if (!tenantId) {
            if (!input.newTenant) throw new Error('create user: tenantId or newTenant required');
            const tenant = await tx.tenant.create({
              data: { id: randomUUID(), ...input.newTenant, emailDomains: input.newTenant.emailDomains ?? [] },
            });
            tenantId = tenant.id;
          }
          const row = await tx.user.create({
            data: {
              id: input.id,
              tenantId,
              email: input.email,
              firstName: input.firstName,
              lastName: input.lastName,
              role: input.role,
              profileImageUrl: input.profileImageUrl ?? null,
              ...(input.emailVerifiedAt ? { emailVerifiedAt: input.emailVerifiedAt } : {}),
              ...(input.locale ? { locale: input.locale } : {}),
              ...(input.passwordHash ? { credential: { create: { passwordHash: input.passwordHash } } } : {}),
              ...(input.externalIdentity ? { externalIdentities: { create: input.externalIdentity } } : {}),
            },
            select: userSelect,
          });
          const user = toRecord(row);
          await inSameTransaction(tx, user);
          return user;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateEmailError();
        throw err;
      }
    },

    /**
     * Sets the user's names and runs `inSameTransaction` (the outbox write, an email change's mails)
     * in the same transaction. The address changes only through changeEmail (its link was opened).
     */
    async updateProfile(
      id: string,
      profile: { firstName: string; lastName: string; locale?: string },
      inSameTransaction: (tx: Tx, user: UserRecord) => Promise<void>,
    ): Promise<UserRecord | undefined> {
      return db.$transaction(async (tx) => {
        const exists = await tx.user.findUnique({ where: { id }, select: { id: true } });
        if (!exists) return undefined;
        const user = toRecord(await tx.user.update({ where: { id }, data: profile, select: userSelect }));
        await inSameTransaction(tx, user);
        return user;
      });
    },

    /**
     * Makes `email` the user's sign-in address, verified (its emailed link was opened), and runs
     * `inSameTransaction`. Undefined when the user is gone or disabled; DuplicateEmailError when
     * another account holds the address.
     */
    async changeEmail(
      id: string,
      email: string,
      inSameTransaction: (tx: Tx, user: UserRecord) => Promise<void>,
    ): Promise<UserRecord | undefined> {
      try {
        return await db.$transaction(async (tx) => {
          const changed = await tx.user.updateMany({
            where: { id, disabledAt: null },
            data: { email, emailVerifiedAt: new Date() },
          });
          if (changed.count === 0) return undefined;
          const user = toRecord(await tx.user.findUniqueOrThrow({ where: { id }, select: userSelect }));
          await inSameTransaction(tx, user);
          return user;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateEmailError();
        throw err;
      }
    },

    /** Sets the user's role and runs `inSameTransaction` (the outbox write) in the same transaction. */
    async updateRole(
      id: string,
      role: UserRole,
      inSameTransaction: (tx: Tx, user: UserRecord) => Promise<void>,
    ): Promise<UserRecord | undefined> {
      return db.$transaction(async (tx) => {
        const exists = await tx.user.findUnique({ where: { id }, select: { id: true } });
        if (!exists) return undefined;
        const user = toRecord(await tx.user.update({ where: { id }, data: { role }, select: userSelect }));
        await inSameTransaction(tx, user);
        return user;
      });
    },

    /**
     * Runs `write` (an outbox write) for every user, once per `name` per database: the marker row
     * and the events commit together, and a second process starting at the same moment waits on
     * the marker and then skips. Returns how many users it covered (0: done before).
     */
    async backfillOnce(name: string, write: (tx: Tx, user: UserRecord) => Promise<void>): Promise<number> {
      const batch = 500;
      return db.$transaction(
        async (tx) => {
          const marked =
            await tx.$executeRaw`insert into event_backfills (name) values (${name}) on conflict do nothing`;
          if (marked === 0) return 0;
          let covered = 0;
          for (let after: string | undefined; ;) {
            const rows = await tx.user.findMany({
              ...(after ? { where: { id: { gt: after } } } : {}),
              select: userSelect,
              orderBy: { id: 'asc' },
              take: batch,
            });
            for (const row of rows) await write(tx, toRecord(row));
            covered += rows.length;
            if (rows.length < batch) return covered;
            after = rows[rows.length - 1]!.id;
          }
        },
        { timeout: 10 * 60_000, maxWait: 60_000 },
      );
    },

    /**
     * Writes only the keys given, in one statement, so concurrent changes to other keys all land;
     * `inSameTransaction` (the outbox write) sees the result and commits with it.
     */
    async updatePreferences(
      id: string,
      change: Partial<Preferences>,
      inSameTransaction?: (tx: Tx, user: UserRecord) => Promise<void>,
    ): Promise<UserRecord | undefined> {
      return db.$transaction(async (tx) => {
        const count = await tx.$executeRaw`
          update users
             set preferences = (case when jsonb_typeof(preferences) = 'object' then preferences else '{}'::jsonb end)
                               || ${JSON.stringify(change)}::jsonb,
                 updated_at = now()
           where id = ${id}::uuid`;
        if (count === 0) return undefined;
        const row = await tx.user.findUnique({ where: { id }, select: userSelect });
        if (!row) return undefined;
        const user = toRecord(row);
        if (inSameTransaction) await inSameTransaction(tx, user);
        return user;
      });
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;

/** The users with these ids, as records (for writers that change many users in one statement: the roster import). */
export async function findUserRecords(tx: Tx, ids: string[]): Promise<UserRecord[]> {
  if (ids.length === 0) return [];
  const rows = await tx.user.findMany({ where: { id: { in: ids } }, select: userSelect });
  return rows.map(toRecord);
}
