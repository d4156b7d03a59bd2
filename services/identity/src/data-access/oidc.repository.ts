// OpenID Connect state: per-district connections (client secret sealed, see domain/secret-box.ts),
// sign-ins in progress, pending sign-ups, and the district settings sign-in reads.
import { deleteInBatches } from '@checkpoint/events';
import type { Db } from './prisma.ts';

export type SsoKind = 'google' | 'entra' | 'generic';

export interface SsoConnectionRecord {
  id: string;
  tenantId: string;
  issuer: string;
  clientId: string;
  /** Sealed ("v1:…"), or plain for a row written before migration 005 until the service seals it. */
  sealedSecret: string;
  emailDomains: string[];
  kind: SsoKind;
  displayName: string;
  enabled: boolean;
  updatedAt: Date;
}

export interface SsoConnectionInput {
  id: string;
  issuer: string;
  clientId: string;
  sealedSecret: string;
  emailDomains: string[];
  kind: SsoKind;
  displayName: string;
  enabled: boolean;
}

export interface TenantSignInRecord {
  id: string;
  name: string;
  kind: 'district' | 'school' | 'individual';
  emailDomains: string[];
  passwordSignIn: boolean;
}

export interface OidcFlowRecord {
  id: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  connectionId: string | null;
  expiresAt: Date;
  returnTo?: string | null;
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
  emailVerified: boolean;
}

type ConnectionRow = {
  id: string;
  tenantId: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomains: string[];
  kind: string;
  displayName: string;
  enabled: boolean;
  updatedAt: Date;
};

function toConnection(row: ConnectionRow): SsoConnectionRecord {
  const { clientSecret, ...rest } = row;
  return { ...rest, sealedSecret: clientSecret, kind: row.kind as SsoKind };
}

export class ConnectionStillNeededError extends Error {}

export function oidcRepository(db: Db) {
  return {
    /** The enabled connection whose allowed domains include `domain`. */
    async findConnectionByDomain(domain: string): Promise<SsoConnectionRecord | undefined> {
      if (!domain) return undefined;
      const row = await db.ssoConnection.findFirst({
        where: { emailDomains: { has: domain }, enabled: true },
        orderBy: { createdAt: 'asc' },
      });
      return row ? toConnection(row) : undefined;
    },

    async findConnection(id: string): Promise<SsoConnectionRecord | undefined> {
      const row = await db.ssoConnection.findUnique({ where: { id } });
      return row ? toConnection(row) : undefined;
    },

    async findConnectionOfTenant(tenantId: string): Promise<SsoConnectionRecord | undefined> {
      const row = await db.ssoConnection.findUnique({ where: { tenantId } });
      return row ? toConnection(row) : undefined;
    },

    /** Creates or replaces the tenant's one connection (its id stays when it exists). */
    async saveConnection(tenantId: string, input: SsoConnectionInput): Promise<SsoConnectionRecord> {
      const { sealedSecret, id, ...fields } = input;
      return db.$transaction(async (tx) => {
        if (!input.enabled) {
          const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { passwordSignIn: true } });
          if (tenant && !tenant.passwordSignIn) throw new ConnectionStillNeededError();
        }
        const row = await tx.ssoConnection.upsert({
          where: { tenantId },
          create: { id, tenantId, clientSecret: sealedSecret, ...fields },
          update: { clientSecret: sealedSecret, ...fields, updatedAt: new Date() },
        });
        return toConnection(row);
      });
    },

    /** Removes the tenant's connection; refused while password sign-in is off (no way in left). */
    async deleteConnection(tenantId: string): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { passwordSignIn: true } });
        if (tenant && !tenant.passwordSignIn) throw new ConnectionStillNeededError();
        const { count } = await tx.ssoConnection.deleteMany({ where: { tenantId } });
        return count > 0;
      });
    },

    async allConnections(): Promise<SsoConnectionRecord[]> {
      return (await db.ssoConnection.findMany({ orderBy: { createdAt: 'asc' } })).map(toConnection);
    },

    /** Replaces a sealed secret if it is still `previous` (a concurrent save wins). */
    async reseal(id: string, previous: string, sealed: string): Promise<void> {
      await db.ssoConnection.updateMany({ where: { id, clientSecret: previous }, data: { clientSecret: sealed } });
    },

    async findTenantSignIn(tenantId: string): Promise<TenantSignInRecord | undefined> {
      const row = await db.tenant.findUnique({
        where: { id: tenantId },
        select: { id: true, name: true, kind: true, emailDomains: true, passwordSignIn: true },
      });
      return row ? { ...row, kind: row.kind as TenantSignInRecord['kind'] } : undefined;
    },

    /** The district or school owning `domain`, with its sign-in settings. */
    async findTenantSignInByDomain(domain: string): Promise<TenantSignInRecord | undefined> {
      if (!domain) return undefined;
      const row = await db.tenant.findFirst({
        where: { kind: { in: ['district', 'school'] }, emailDomains: { has: domain } },
        select: { id: true, name: true, kind: true, emailDomains: true, passwordSignIn: true },
        orderBy: { createdAt: 'asc' },
      });
      return row ? { ...row, kind: row.kind as TenantSignInRecord['kind'] } : undefined;
    },

    /**
     * Turns password sign-in on or off. Off only while the tenant has an enabled connection (one
     * statement: a connection removed at the same moment cannot slip between check and write).
     */
    async setPasswordSignIn(tenantId: string, on: boolean): Promise<boolean> {
      if (on) {
        await db.tenant.updateMany({ where: { id: tenantId }, data: { passwordSignIn: true } });
        return true;
      }
      const { count } = await db.tenant.updateMany({
        where: { id: tenantId, ssoConnections: { some: { enabled: true } } },
        data: { passwordSignIn: false },
      });
      return count === 1;
    },

    async saveFlow(flow: OidcFlowRecord): Promise<void> {
      await db.oidcFlow.create({ data: { ...flow, returnTo: flow.returnTo ?? null } });
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

    async deleteExpired(options: { running?: () => boolean } = {}, now = new Date()): Promise<void> {
      await deleteInBatches(db, 'oidc_flows', 'expires_at < $1', [now], options);
      await deleteInBatches(db, 'pending_signups', 'expires_at < $1', [now], options);
    },
  };
}

export type OidcRepository = ReturnType<typeof oidcRepository>;
