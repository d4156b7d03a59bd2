// OpenID Connect state: per-tenant connections, sign-ins in progress, pending sign-ups.
import type { Db } from './prisma.ts';

export interface SsoConnectionRecord {
  id: string;
  tenantId: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomains: string[];
}

export interface OidcFlowRecord {
  id: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  connectionId: string | null;
  expiresAt: Date;
}

export interface PendingSignupRecord {
  tokenHash: string;
  issuer: string;
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  tenantId: string | null;
  expiresAt: Date;
}

export function oidcRepository(db: Db) {
  return {
    async findConnectionByDomain(domain: string): Promise<SsoConnectionRecord | undefined> {
      if (!domain) return undefined;
      const row = await db.ssoConnection.findFirst({
        where: { emailDomains: { has: domain } },
        orderBy: { createdAt: 'asc' },
      });
      return row ?? undefined;
    },

    async findConnection(id: string): Promise<SsoConnectionRecord | undefined> {
      return (await db.ssoConnection.findUnique({ where: { id } })) ?? undefined;
    },

    async createConnection(input: Omit<SsoConnectionRecord, 'id'>): Promise<SsoConnectionRecord> {
      return db.ssoConnection.create({ data: input });
    },

    async saveFlow(flow: OidcFlowRecord): Promise<void> {
      await db.oidcFlow.create({ data: flow });
    },

    /** Reads and deletes a flow: each one can be completed once. */
    async takeFlow(id: string, now = new Date()): Promise<OidcFlowRecord | undefined> {
      const flow = await db.oidcFlow.findUnique({ where: { id } });
      if (!flow) return undefined;
      // Whoever deletes the row owns the flow: a replayed callback finds nothing.
      const { count } = await db.oidcFlow.deleteMany({ where: { id } });
      return count === 1 && flow.expiresAt > now ? flow : undefined;
    },

    async savePendingSignup(pending: PendingSignupRecord): Promise<void> {
      await db.pendingSignup.create({ data: pending });
    },

    async findPendingSignup(tokenHash: string, now = new Date()): Promise<PendingSignupRecord | undefined> {
      const row = await db.pendingSignup.findUnique({ where: { tokenHash } });
      return row && row.expiresAt > now ? row : undefined;
    },

    async deletePendingSignup(tokenHash: string): Promise<void> {
      await db.pendingSignup.deleteMany({ where: { tokenHash } });
    },

    async deleteExpired(now = new Date()): Promise<void> {
      await db.oidcFlow.deleteMany({ where: { expiresAt: { lt: now } } });
      await db.pendingSignup.deleteMany({ where: { expiresAt: { lt: now } } });
    },
  };
}

export type OidcRepository = ReturnType<typeof oidcRepository>;
