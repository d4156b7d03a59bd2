// What a district's admin reads and changes (D6): its tenant, its users page by page, pending
// invitations, and the role and removal of one user. Every query names the tenant: an id of
// another tenant finds nothing. Changes to a user run under a lock on the tenant row, so two admins
// demoting or removing each other at once cannot leave the district without an admin.
import type { TenantKind, UserRecord, UserRole } from '../domain/user.ts';
import type { Db, Tx } from './prisma.ts';
import { toRecord, userSelect } from './users.repository.ts';

export interface DistrictTenant {
  id: string;
  name: string;
  kind: TenantKind;
  emailDomains: string[];
  passwordSignIn: boolean;
}

/** How an account came to be, as far as identity knows. */
export type AccountSource = 'password' | 'sso' | 'invitation' | 'roster' | 'unknown';

export interface DistrictUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  createdAt: Date;
  emailVerified: boolean;
  disabled: boolean;
  source: AccountSource;
  /** A student's picture or words sign-in (ADR 015): its username and kind; null without one. */
  username: string | null;
  signInWith: 'picture' | 'words' | null;
}

export interface UserPageQuery {
  search?: string;
  role?: UserRole;
  limit: number;
  /** The last row of the previous page (see `encodeCursor`). */
  after?: UserCursor;
}

/** Keyset position: users are listed by last name, first name, id (case-insensitive names). */
export interface UserCursor {
  lastName: string;
  firstName: string;
  id: string;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: string;
  createdAt: Date;
  expiresAt: Date;
}

/** Statements of one locked change to a tenant's users. */
export interface TenantChange {
  tx: Tx;
  findUser(id: string): Promise<UserRecord | undefined>;
  /** Admins of the tenant that are not disabled. */
  countActiveAdmins(): Promise<number>;
  /** Disables the account and ends all its sessions (the gateway learns of them at once). */
  disable(id: string): Promise<UserRecord>;
  setRole(id: string, role: UserRole): Promise<UserRecord>;
}

/** LIKE pattern matching `text` anywhere, with its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function encodeCursor(c: UserCursor): string {
  return Buffer.from(JSON.stringify([c.lastName, c.firstName, c.id])).toString('base64url');
}

/** The cursor, or undefined when it is not one this service made. */
export function decodeCursor(text: string): UserCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      value.every((v) => typeof v === 'string') &&
      /^[0-9a-f-]{36}$/i.test(value[2] as string)
    ) {
      const [lastName, firstName, id] = value as [string, string, string];
      return { lastName, firstName, id };
    }
  } catch {
    // not base64url JSON
  }
  return undefined;
}

type ListedRow = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  created_at: Date;
  email_verified: boolean;
  disabled: boolean;
  has_external: boolean;
  has_password: boolean;
  invited: boolean;
  rostered: boolean;
  username: string | null;
  secret_kind: 'picture' | 'words' | null;
};

function sourceOf(row: ListedRow): AccountSource {
  if (row.rostered) return 'roster';
  if (row.invited) return 'invitation';
  if (row.has_external) return 'sso';
  if (row.has_password) return 'password';
  return 'unknown';
}

export function districtRepository(db: Db) {
  return {
    async findTenant(tenantId: string): Promise<DistrictTenant | undefined> {
      const [row] = await db.$queryRaw<
        { id: string; name: string; kind: string; email_domains: string[]; password_sign_in: boolean }[]
      >`select id, name, kind, email_domains, password_sign_in from tenants where id = ${tenantId}::uuid`;
      return row
        ? {
            id: row.id,
            name: row.name,
            kind: row.kind as TenantKind,
            emailDomains: row.email_domains,
            passwordSignIn: row.password_sign_in,
          }
        : undefined;
    },

    /** Users of the tenant by role, the disabled ones apart. */
    async countByRole(
      tenantId: string,
    ): Promise<{ student: number; teacher: number; admin: number; disabled: number }> {
      const rows = await db.$queryRaw<{ role: string; disabled: boolean; n: number }[]>`
        select role, disabled_at is not null as disabled, count(*)::int as n
          from users where tenant_id = ${tenantId}::uuid group by 1, 2`;
      const counts = { student: 0, teacher: 0, admin: 0, disabled: 0 };
      for (const r of rows) {
        if (r.disabled) counts.disabled += r.n;
        else if (r.role === 'student' || r.role === 'teacher' || r.role === 'admin') counts[r.role] += r.n;
      }
      return counts;
    },

    /** One page of the tenant's users (limit + 1 rows are read to know whether more follow). */
    async listUsers(tenantId: string, q: UserPageQuery): Promise<{ users: DistrictUser[]; next?: UserCursor }> {
      const search = q.search?.trim() ? containsPattern(q.search.trim()) : null;
      const after = q.after;
      const rows = await db.$queryRaw<ListedRow[]>`
        select u.id, coalesce(u.email, '') as email, u.first_name, u.last_name, u.role, u.created_at,
               l.username, l.secret_kind,
               u.email_verified_at is not null as email_verified,
               u.disabled_at is not null as disabled,
               exists (select 1 from external_identities e where e.user_id = u.id) as has_external,
               exists (select 1 from credentials c where c.user_id = u.id) as has_password,
               exists (select 1 from email_tokens t where t.purpose = 'invite' and t.used_at is not null
                        and t.tenant_id = u.tenant_id and lower(t.email) = lower(u.email)) as invited,
               exists (select 1 from roster_users r where r.user_id = u.id) as rostered
          from users u
          left join student_logins l on l.user_id = u.id
         where u.tenant_id = ${tenantId}::uuid
           and (${q.role ?? null}::text is null or u.role = ${q.role ?? null}::text)
           and (${search}::text is null
                or u.email ilike ${search}::text
                or u.first_name ilike ${search}::text
                or u.last_name ilike ${search}::text
                or (u.first_name || ' ' || u.last_name) ilike ${search}::text
                or l.username ilike ${search}::text)
           and (${after ? 1 : 0}::int = 0
                or (lower(u.last_name), lower(u.first_name), u.id)
                   > (lower(${after?.lastName ?? ''}::text), lower(${after?.firstName ?? ''}::text),
                      ${after?.id ?? '00000000-0000-0000-0000-000000000000'}::uuid))
         order by lower(u.last_name), lower(u.first_name), u.id
         limit ${q.limit + 1}`;
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        users: page.map((r) => ({
          id: r.id,
          email: r.email,
          firstName: r.first_name,
          lastName: r.last_name,
          role: r.role as UserRole,
          createdAt: r.created_at,
          emailVerified: r.email_verified,
          disabled: r.disabled,
          source: sourceOf(r),
          username: r.username,
          signInWith: r.secret_kind,
        })),
        ...(rows.length > q.limit && last
          ? { next: { lastName: last.last_name, firstName: last.first_name, id: last.id } }
          : {}),
      };
    },

    /** Invitations of the tenant not yet accepted and not expired (email_tokens, purpose invite). */
    async pendingInvitations(tenantId: string): Promise<PendingInvitation[]> {
      const rows = await db.$queryRaw<
        { token_hash: string; email: string; payload: unknown; created_at: Date; expires_at: Date }[]
      >`select token_hash, email, payload, created_at, expires_at from email_tokens
         where tenant_id = ${tenantId}::uuid and purpose = 'invite' and used_at is null and expires_at > now()
         order by created_at desc limit 500`;
      return rows.map((r) => ({
        id: r.token_hash,
        email: r.email,
        role: roleOfPayload(r.payload),
        createdAt: r.created_at,
        expiresAt: r.expires_at,
      }));
    },

    /**
     * Ends a pending invitation (in the caller's transaction): its link stops working. What it was
     * (address and role), or undefined when there is none of the tenant's.
     */
    async revokeInvitation(tx: Tx, tenantId: string, id: string): Promise<{ email: string; role: string } | undefined> {
      const rows = await tx.$queryRaw<{ email: string; payload: unknown }[]>`
        delete from email_tokens
         where token_hash = ${id} and tenant_id = ${tenantId}::uuid and purpose = 'invite' and used_at is null
         returning email, payload`;
      const row = rows[0];
      return row ? { email: row.email, role: roleOfPayload(row.payload) } : undefined;
    },

    /** Runs `fn` in one transaction holding the tenant row's lock. */
    async changeTenant<T>(tenantId: string, fn: (change: TenantChange) => Promise<T>): Promise<T> {
      return db.$transaction(async (tx) => {
        await tx.$queryRaw`select id from tenants where id = ${tenantId}::uuid for update`;
        const change: TenantChange = {
          tx,
          async findUser(id) {
            const row = await tx.user.findFirst({ where: { id, tenantId }, select: userSelect });
            return row ? toRecord(row) : undefined;
          },
          async countActiveAdmins() {
            return tx.user.count({ where: { tenantId, role: 'admin', disabledAt: null } });
          },
          async disable(id) {
            const now = new Date();
            const row = await tx.user.update({ where: { id }, data: { disabledAt: now }, select: userSelect });
            await tx.session.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: now } });
            return toRecord(row);
          },
          async setRole(id, role) {
            return toRecord(await tx.user.update({ where: { id }, data: { role }, select: userSelect }));
          },
        };
        return fn(change);
      });
    },

    /** Ends every session of the user (a demoted admin signs in again with the new role). */
    async revokeSessions(tx: Tx, userId: string): Promise<void> {
      await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
    },
  };
}

function roleOfPayload(payload: unknown): string {
  const role = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).role : undefined;
  return typeof role === 'string' ? role : '';
}

export type DistrictRepository = ReturnType<typeof districtRepository>;
