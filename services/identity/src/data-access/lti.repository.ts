// LMS users mapped to accounts (lti_identities) and the one-time sign-ins a launch opens
// (lti_handoffs), docs/adr/014-lti.md: SQL only.
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '@checkpoint/service-kit';
import type { UserRecord } from '../domain/user.ts';
import type { Db, Tx } from './prisma.ts';
import { toRecord, userSelect } from './users.repository.ts';

export interface LtiSubject {
  tenantId: string;
  issuer: string;
  clientId: string;
  subject: string;
}

export function ltiRepository(db: Db) {
  return {
    /** The account an LMS user of this district is mapped to. */
    async findUser(s: Pick<LtiSubject, 'tenantId' | 'issuer' | 'subject'>): Promise<UserRecord | undefined> {
      const row = await db.ltiIdentity.findUnique({
        where: { tenantId_issuer_subject: { tenantId: s.tenantId, issuer: s.issuer, subject: s.subject } },
        select: { user: { select: userSelect } },
      });
      return row ? toRecord(row.user) : undefined;
    },

    /** Maps the LMS user to the account; false when the LMS user is mapped already (a concurrent launch). */
    async link(userId: string, s: LtiSubject, tx?: Tx): Promise<boolean> {
      try {
        await (tx ?? db).ltiIdentity.create({ data: { id: randomUUID(), userId, ...s } });
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },

    async createHandoff(tokenHash: string, userId: string, returnTo: string, expiresAt: Date): Promise<void> {
      await db.ltiHandoff.create({ data: { tokenHash, userId, returnTo, expiresAt } });
    },

    /** Takes a handoff once (deleted as it is read); undefined when unknown, used or expired. */
    async takeHandoff(tokenHash: string): Promise<{ userId: string; returnTo: string } | undefined> {
      const rows = await db.$queryRaw<{ userId: string; returnTo: string; live: boolean }[]>`
        delete from lti_handoffs where token_hash = ${tokenHash}
        returning user_id::text as "userId", return_to as "returnTo", expires_at > now() as live`;
      const row = rows[0];
      return row?.live ? { userId: row.userId, returnTo: row.returnTo } : undefined;
    },

    /** Handoffs nobody redeemed (housekeeping). */
    async deleteExpired(): Promise<number> {
      return db.$executeRaw`delete from lti_handoffs where expires_at < now()`;
    },
  };
}

export type LtiRepository = ReturnType<typeof ltiRepository>;
