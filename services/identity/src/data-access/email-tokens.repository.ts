// One-time email links (D4): the table keeps the SHA-256 of the token only; a token is redeemed
// once, by the single statement that marks it used while it is unused and unexpired.
import { deleteInBatches } from '@checkpoint/events';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db, Tx } from './prisma.ts';

export const EMAIL_TOKEN_PURPOSES = ['verify', 'signup', 'reset', 'invite', 'welcome', 'email_change'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

export interface NewEmailToken {
  tokenHash: string;
  purpose: EmailTokenPurpose;
  userId?: string | null;
  tenantId?: string | null;
  email: string;
  payload?: Record<string, unknown>;
  expiresAt: Date;
}

export interface EmailTokenRecord {
  tokenHash: string;
  purpose: EmailTokenPurpose;
  userId: string | null;
  tenantId: string | null;
  email: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

interface Row {
  token_hash: string;
  purpose: string;
  user_id: string | null;
  tenant_id: string | null;
  email: string;
  payload: unknown;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

function toRecord(row: Row): EmailTokenRecord {
  return {
    tokenHash: row.token_hash,
    purpose: row.purpose as EmailTokenPurpose,
    userId: row.user_id,
    tenantId: row.tenant_id,
    email: row.email,
    payload: row.payload && typeof row.payload === 'object' ? (row.payload as Record<string, unknown>) : {},
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  };
}

export function emailTokensRepository(db: Db) {
  return {
    /** Stores a token (in `tx` when given, so it commits with the mail that carries it). */
    async create(token: NewEmailToken, tx: Tx | Db = db): Promise<void> {
      await tx.emailToken.create({
        data: {
          tokenHash: token.tokenHash,
          purpose: token.purpose,
          userId: token.userId ?? null,
          tenantId: token.tenantId ?? null,
          email: token.email,
          payload: (token.payload ?? {}) as Prisma.InputJsonValue,
          expiresAt: token.expiresAt,
        },
      });
    },

    /**
     * Marks the token used and returns it, when it exists with one of `purposes`, is unused and
     * has not expired; otherwise undefined. Exactly one of two concurrent calls gets it.
     */
    async redeem(
      tokenHash: string,
      purposes: readonly EmailTokenPurpose[],
      tx: Tx | Db = db,
    ): Promise<EmailTokenRecord | undefined> {
      const rows = await tx.$queryRawUnsafe<Row[]>(
        `update email_tokens set used_at = now()
          where token_hash = $1 and used_at is null and expires_at > now() and purpose = any($2::text[])
          returning *`,
        tokenHash,
        [...purposes],
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    },

    /** Gives a redeemed token back (the work it was redeemed for failed). */
    async unredeem(tokenHash: string): Promise<void> {
      await db.emailToken.updateMany({ where: { tokenHash }, data: { usedAt: null } });
    },

    /** Unused tokens of a user for a purpose stop working (a newer link replaces them). */
    async invalidate(userId: string, purpose: EmailTokenPurpose, tx: Tx | Db = db): Promise<void> {
      await tx.emailToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: new Date() } });
    },

    /** The new address of the user's pending email change (its link unused and unexpired), if any. */
    async findPendingEmailChange(userId: string, tx: Tx | Db = db): Promise<string | undefined> {
      const row = await tx.emailToken.findFirst({
        where: { userId, purpose: 'email_change', usedAt: null, expiresAt: { gt: new Date() } },
        orderBy: { createdAt: 'desc' },
        select: { email: true },
      });
      return row?.email;
    },

    /** Marks the address proven, if the user still has it (a later email change wins). */
    async markEmailVerified(userId: string, email: string, tx: Tx | Db = db): Promise<boolean> {
      const result = await tx.user.updateMany({
        where: { id: userId, email, emailVerifiedAt: null },
        data: { emailVerifiedAt: new Date() },
      });
      if (result.count > 0) return true;
      return (await tx.user.count({ where: { id: userId, email } })) > 0;
    },

    /** Sets (or first creates) the user's password credential. */
    async setPasswordHash(userId: string, passwordHash: string, tx: Tx | Db = db): Promise<void> {
      await tx.credential.upsert({
        where: { userId },
        create: { userId, passwordHash },
        update: { passwordHash, updatedAt: new Date() },
      });
    },

    /** What the mails need to know about a tenant. */
    async findTenantInfo(
      tenantId: string,
    ): Promise<{ id: string; name: string; kind: string; passwordSignIn: boolean } | undefined> {
      const row = await db.tenant.findUnique({
        where: { id: tenantId },
        select: { id: true, name: true, kind: true, passwordSignIn: true },
      });
      return row ?? undefined;
    },

    /** Runs `fn` in one transaction. */
    transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      return db.$transaction(fn);
    },

    /** Drops tokens that expired or were used more than a day ago. */
    async deleteExpired(options: { running?: () => boolean } = {}, now = new Date()): Promise<number> {
      const dayAgo = new Date(now.getTime() - 86_400_000);
      return deleteInBatches(db, 'email_tokens', 'expires_at < $1 or used_at < $1', [dayAgo], options);
    },
  };
}

export type EmailTokensRepository = ReturnType<typeof emailTokensRepository>;
