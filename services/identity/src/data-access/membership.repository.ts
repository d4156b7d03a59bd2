// District membership (docs/security.md, "District membership"): which district owns an email
// domain, and the pending invitations of email_tokens (purpose 'invite') read without using them.
import type { UserRole } from '../domain/user.ts';
import type { Db, Tx } from './prisma.ts';

export interface DistrictOfDomain {
  id: string;
  name: string;
  kind: 'district' | 'school';
  /** false: the district's members sign in through its own provider only. */
  passwordSignIn: boolean;
}

export interface PendingInvitation {
  tenantId: string;
  districtName: string;
  email: string;
  role: UserRole;
  expiresAt: Date;
}

export function membershipRepository(db: Db) {
  return {
    /** The district or school whose email domains include `domain` (the oldest, as sign-up always took). */
    async findDistrictByDomain(domain: string): Promise<DistrictOfDomain | undefined> {
      if (!domain) return undefined;
      const row = await db.tenant.findFirst({
        where: { kind: { in: ['district', 'school'] }, emailDomains: { has: domain } },
        select: { id: true, name: true, kind: true, passwordSignIn: true },
        orderBy: { createdAt: 'asc' },
      });
      return row ? { ...row, kind: row.kind as 'district' | 'school' } : undefined;
    },

    /** An invitation that is unused and not expired, by its token's hash; nothing is changed. */
    async findPendingInvitation(tokenHash: string): Promise<PendingInvitation | undefined> {
      const row = await db.emailToken.findFirst({
        where: { tokenHash, purpose: 'invite', usedAt: null, expiresAt: { gt: new Date() }, tenantId: { not: null } },
        select: { email: true, payload: true, expiresAt: true, tenant: { select: { id: true, name: true } } },
      });
      if (!row?.tenant) return undefined;
      return {
        tenantId: row.tenant.id,
        districtName: row.tenant.name,
        email: row.email,
        role: invitedRole(row.payload),
        expiresAt: row.expiresAt,
      };
    },

    /**
     * Uses the invitation inside the caller's transaction (single use: the update only matches an
     * unused, unexpired row); undefined when it was used, expired or never existed.
     */
    async useInvitation(
      tx: Tx,
      tokenHash: string,
    ): Promise<{ tenantId: string; email: string; role: UserRole } | undefined> {
      const rows = await tx.$queryRaw<{ tenant_id: string | null; email: string; payload: unknown }[]>`
        update email_tokens set used_at = now()
         where token_hash = ${tokenHash} and purpose = 'invite' and used_at is null and expires_at > now()
         returning tenant_id, email, payload`;
      const row = rows[0];
      if (!row?.tenant_id) return undefined;
      return { tenantId: row.tenant_id, email: row.email, role: invitedRole(row.payload) };
    },
  };
}

/** The role the admin chose (payload.role); a teacher when missing, never an unknown value. */
function invitedRole(payload: unknown): UserRole {
  const role = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).role : undefined;
  return role === 'student' || role === 'admin' || role === 'teacher' ? role : 'teacher';
}

export type MembershipRepository = ReturnType<typeof membershipRepository>;
