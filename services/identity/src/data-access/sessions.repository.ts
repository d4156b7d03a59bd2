// Refresh tokens: one row per token, the tokens of one sign-in share a family (the session).
import { randomUUID } from 'node:crypto';
import { deleteInBatches } from '@checkpoint/events';
import { decideRefresh, type RefreshDecision, type RefreshPolicy } from '../domain/refresh-policy.ts';
import type { Db } from './prisma.ts';

export interface NewSession {
  userId: string;
  tokenHash: string;
  csrf: string;
  expiresAt: Date;
}

export interface RefreshOutcome {
  decision: RefreshDecision['kind'] | 'unknown' | 'user-disabled';
  familyId?: string;
  userId?: string;
  csrf?: string;
  expiresAt?: Date;
}

export function sessionsRepository(db: Db) {
  return {
    /** Starts a new session family; returns its id (the `sid` claim). */
    async create(session: NewSession): Promise<string> {
      const familyId = randomUUID();
      await db.session.create({ data: { id: randomUUID(), familyId, ...session } });
      return familyId;
    },

    /**
     * Applies the refresh policy to the token with this hash, under a row lock so that two
     * parallel refreshes cannot both rotate it. On 'rotate' the successor row (newTokenHash) is
     * written; on 'reuse' the whole family is revoked.
     */
    async refresh(
      tokenHash: string,
      newTokenHash: string,
      policy: RefreshPolicy,
      now = new Date(),
    ): Promise<RefreshOutcome> {
      return db.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<
          { id: string }[]
        >`select id from sessions where token_hash = ${tokenHash} for update`;
        const id = rows[0]?.id;
        if (!id) return { decision: 'unknown' };
        const row = await tx.session.findUniqueOrThrow({
          where: { id },
          include: { user: { select: { disabledAt: true } } },
        });
        const base = { familyId: row.familyId, userId: row.userId, csrf: row.csrf, expiresAt: row.expiresAt };
        if (row.user.disabledAt) {
          await tx.session.updateMany({ where: { familyId: row.familyId, revokedAt: null }, data: { revokedAt: now } });
          return { decision: 'user-disabled' };
        }
        let decision = decideRefresh(row, now, policy);
        if (decision.kind === 'grace') {
          // Within the grace window, but only while the rest of the family is still alive.
          const live = await tx.session.count({ where: { familyId: row.familyId, revokedAt: null } });
          if (live === 0 || row.revokedAt) decision = { kind: 'revoked' };
        }
        switch (decision.kind) {
          case 'rotate': {
            const successorId = randomUUID();
            await tx.session.create({
              data: {
                id: successorId,
                familyId: row.familyId,
                userId: row.userId,
                tokenHash: newTokenHash,
                csrf: row.csrf,
                expiresAt: row.expiresAt,
                createdAt: now,
                lastUsedAt: now,
              },
            });
            await tx.session.update({ where: { id }, data: { rotatedAt: now, lastUsedAt: now, successorId } });
            return { decision: 'rotate', ...base };
          }
          case 'grace':
            return { decision: 'grace', ...base };
          case 'reuse':
            await tx.session.updateMany({
              where: { familyId: row.familyId, revokedAt: null },
              data: { revokedAt: now },
            });
            return { decision: 'reuse', familyId: row.familyId, userId: row.userId };
          default:
            return { decision: decision.kind };
        }
      });
    },

    async familyOfToken(tokenHash: string): Promise<string | undefined> {
      const row = await db.session.findUnique({ where: { tokenHash }, select: { familyId: true } });
      return row?.familyId;
    },

    async isFamilyActive(familyId: string, now = new Date()): Promise<boolean> {
      const live = await db.session.count({ where: { familyId, revokedAt: null, expiresAt: { gt: now } } });
      return live > 0;
    },

    /**
     * Whether the user signed in before this session (`familyId`): another of their sessions began
     * earlier. Sessions long expired are purged, so after a very long absence this says no.
     */
    async signedInBefore(userId: string, familyId: string): Promise<boolean> {
      const first = await db.session.findFirst({
        where: { familyId, userId },
        orderBy: { createdAt: 'asc' },
        select: { createdAt: true },
      });
      if (!first) return false;
      const earlier = await db.session.count({
        where: { userId, familyId: { not: familyId }, createdAt: { lt: first.createdAt } },
      });
      return earlier > 0;
    },

    async revokeFamily(familyId: string, now = new Date()): Promise<number> {
      const result = await db.session.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } });
      return result.count;
    },

    /** Ends every session of a user (account disabled or deleted). */
    async revokeAllOfUser(userId: string, now = new Date()): Promise<number> {
      const result = await db.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
      return result.count;
    },

    /** Ends every session of a user but `keepFamilyId` (the one that changed the password). */
    async revokeAllOfUserExcept(userId: string, keepFamilyId: string | undefined, now = new Date()): Promise<number> {
      const result = await db.session.updateMany({
        where: { userId, revokedAt: null, ...(keepFamilyId ? { familyId: { not: keepFamilyId } } : {}) },
        data: { revokedAt: now },
      });
      return result.count;
    },

    /**
     * Sessions (families) revoked after `since` and not before `notBefore`, with when: the gateway
     * refuses their access tokens until those expire.
     */
    async revokedSince(since: Date, notBefore: Date): Promise<{ id: string; revokedAt: Date }[]> {
      const after = since > notBefore ? since : notBefore;
      const rows = await db.session.groupBy({
        by: ['familyId'],
        where: { revokedAt: { gt: after } },
        _max: { revokedAt: true },
      });
      // Sessions of deleted accounts (privacy operations): their rows are gone, their ids are here.
      const erased = await db.erasedSession.findMany({ where: { revokedAt: { gt: after } } });
      return [
        ...rows.map((r) => ({ id: r.familyId, revokedAt: r._max.revokedAt! })),
        ...erased.map((r) => ({ id: r.familyId, revokedAt: r.revokedAt })),
      ];
    },

    /** Drops rows of sessions that ended more than a day ago. */
    async deleteExpired(options: { running?: () => boolean } = {}, now = new Date()): Promise<number> {
      const dayAgo = new Date(now.getTime() - 86_400_000);
      return deleteInBatches(db, 'sessions', 'expires_at < $1 or revoked_at < $1', [dayAgo], options);
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
