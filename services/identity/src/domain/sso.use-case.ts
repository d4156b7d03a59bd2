// A district's SSO settings (D7): its one OpenID Connect connection, whether its members may still
// sign in with a password, and what the sign-in page learns from a typed email. Used by the admin
// API (/api/district/sso), the operator command (`npm run sso`) and the sign-in routes.
import { randomUUID } from 'node:crypto';
import { AppError, ConflictError, NotFoundError, ValidationError } from '@checkpoint/service-kit';
import {
  ConnectionStillNeededError,
  type OidcRepository,
  type SsoConnectionRecord,
  type SsoKind,
  type TenantSignInRecord,
} from '../data-access/oidc.repository.ts';
import { discover, type ProviderSettings } from './oidc.use-case.ts';
import { SecretsKeyMissingError, type SecretBox } from './secret-box.ts';
import { connectionSecretContext, kindOfIssuer } from './sso-connection.ts';
import { emailDomain, normalizeEmail } from './user.ts';

export interface SsoDeps {
  oidc: OidcRepository;
  secrets: SecretBox;
  /** Public origin of the app: the redirect and initiate URLs shown to the district's admin. */
  publicUrl: string;
  /** Provider discovery, to check a connection before it is saved. */
  discover?: (provider: ProviderSettings) => Promise<unknown>;
}

export interface SsoConnectionView {
  id: string;
  issuer: string;
  kind: SsoKind;
  clientId: string;
  /** The secret is never returned, only whether one is stored. */
  hasSecret: boolean;
  emailDomains: string[];
  displayName: string;
  enabled: boolean;
  updatedAt: string;
  /** For the provider's "initiate login URI" (sign-in the provider starts). */
  initiateLoginUri: string;
}

export interface SsoSettingsView {
  connection: SsoConnectionView | null;
  passwordSignIn: boolean;
  /** The district's own domains: the connection may allow some of them. */
  districtDomains: string[];
  /** The redirect URI to register at the provider. */
  redirectUri: string;
}

export interface SsoConnectionInput {
  issuer: string;
  clientId: string;
  /** Omitted: keep the stored one (same issuer and client id only). */
  clientSecret?: string | undefined;
  emailDomains: string[];
  displayName?: string | undefined;
  enabled: boolean;
}

export class PasswordSignInDisabledError extends AppError {
  constructor(districtName: string, buttonName: string) {
    super(
      'forbidden',
      'password_sign_in_disabled',
      `${districtName} signs in with its own provider. Use “Continue with ${buttonName}” on the sign-in page.`,
    );
  }
}

/** 503: the operator has not given SECRETS_KEY. */
export class SecretsUnavailableError extends AppError {
  constructor() {
    super('unavailable', 'unavailable', new SecretsKeyMissingError().message);
  }
}

async function districtOf(deps: SsoDeps, tenantId: string): Promise<TenantSignInRecord> {
  const tenant = await deps.oidc.findTenantSignIn(tenantId);
  // Only a district or school has sign-in settings; anything else is "not yours".
  if (!tenant || tenant.kind === 'individual') throw new NotFoundError('No district');
  return tenant;
}

function view(deps: SsoDeps, tenant: TenantSignInRecord, connection: SsoConnectionRecord | undefined): SsoSettingsView {
  return {
    connection: connection
      ? {
          id: connection.id,
          issuer: connection.issuer,
          kind: connection.kind,
          clientId: connection.clientId,
          hasSecret: connection.sealedSecret !== '',
          emailDomains: connection.emailDomains,
          displayName: connection.displayName || tenant.name,
          enabled: connection.enabled,
          updatedAt: connection.updatedAt.toISOString(),
          initiateLoginUri: `${deps.publicUrl}/api/auth/sso/${connection.id}/initiate`,
        }
      : null,
    passwordSignIn: tenant.passwordSignIn,
    districtDomains: tenant.emailDomains,
    redirectUri: `${deps.publicUrl}/api/auth/google/callback`,
  };
}

export async function getSsoSettings(deps: SsoDeps, tenantId: string): Promise<SsoSettingsView> {
  const tenant = await districtOf(deps, tenantId);
  return view(deps, tenant, await deps.oidc.findConnectionOfTenant(tenantId));
}

/**
 * Creates or replaces the district's connection after checking it: the issuer's kind (Entra's
 * shared issuers refused), the allowed domains (the district's own), and discovery at the issuer.
 */
export async function saveSsoConnection(
  deps: SsoDeps,
  tenantId: string,
  input: SsoConnectionInput,
): Promise<SsoSettingsView> {
  const tenant = await districtOf(deps, tenantId);
  const issuer = input.issuer.trim();
  const kind = kindOfIssuer(issuer);
  const clientId = input.clientId.trim();
  if (!clientId) throw new ValidationError('The client id is required', { clientId: 'Required' });
  const domains = [...new Set(input.emailDomains.map((d) => d.trim().toLowerCase().replace(/^@/, '')))].filter(Boolean);
  if (domains.length === 0) {
    throw new ValidationError('Choose at least one email domain', { emailDomains: 'Choose at least one domain' });
  }
  const foreign = domains.filter((d) => !tenant.emailDomains.includes(d));
  if (foreign.length > 0) {
    throw new ValidationError(`Not a domain of ${tenant.name}: ${foreign.join(', ')}`, {
      emailDomains: `Only the district's own domains: ${tenant.emailDomains.join(', ') || '(none registered)'}`,
    });
  }
  const existing = await deps.oidc.findConnectionOfTenant(tenantId);
  const id = existing?.id ?? randomUUID();
  const clientSecret = input.clientSecret?.trim() || undefined;
  if (!clientSecret) {
    if (!existing || existing.issuer !== issuer || existing.clientId !== clientId) {
      throw new ValidationError('The client secret is required for a new issuer or client id', {
        clientSecret: 'Required',
      });
    }
  }
  if (!deps.secrets.ready) throw new SecretsUnavailableError();
  try {
    await (deps.discover ?? discover)({ issuer, clientId, clientSecret: clientSecret ?? '' });
  } catch (err) {
    throw new ValidationError(
      `Could not read the OpenID Connect configuration of ${issuer}: ${(err as Error).message}`,
      {
        issuer: `Discovery failed at ${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      },
    );
  }
  const sealedSecret = clientSecret
    ? deps.secrets.seal(clientSecret, connectionSecretContext(id))
    : (existing?.sealedSecret ?? '');
  try {
    const saved = await deps.oidc.saveConnection(tenantId, {
      id,
      issuer,
      clientId,
      sealedSecret,
      emailDomains: domains,
      kind,
      displayName: (input.displayName ?? '').trim().slice(0, 100) || tenant.name,
      enabled: input.enabled,
    });
    return view(deps, tenant, saved);
  } catch (err) {
    if (err instanceof ConnectionStillNeededError) throw stillNeeded();
    throw err;
  }
}

function stillNeeded(): ConflictError {
  return new ConflictError(
    'Password sign-in is off: the connection is the only way in. Turn password sign-in on first.',
    'connection_required',
  );
}

export async function removeSsoConnection(deps: SsoDeps, tenantId: string): Promise<boolean> {
  await districtOf(deps, tenantId);
  try {
    return await deps.oidc.deleteConnection(tenantId);
  } catch (err) {
    if (err instanceof ConnectionStillNeededError) throw stillNeeded();
    throw err;
  }
}

export async function setPasswordSignIn(deps: SsoDeps, tenantId: string, on: boolean): Promise<SsoSettingsView> {
  await districtOf(deps, tenantId);
  if (!(await deps.oidc.setPasswordSignIn(tenantId, on))) {
    throw new ConflictError(
      'Password sign-in can be turned off only while an enabled SSO connection exists.',
      'connection_required',
    );
  }
  return getSsoSettings(deps, tenantId);
}

export interface SignInLookup {
  provider: { name: string; startUrl: string } | null;
  passwordSignIn: boolean;
}

/** What the sign-in page offers for a typed address: the district's button, and whether a password works. */
export async function lookUpSignIn(deps: Pick<SsoDeps, 'oidc'>, rawEmail: string): Promise<SignInLookup> {
  const email = normalizeEmail(rawEmail);
  const domain = emailDomain(email);
  const [tenant, connection] = await Promise.all([
    deps.oidc.findTenantSignInByDomain(domain),
    deps.oidc.findConnectionByDomain(domain),
  ]);
  return {
    provider: connection
      ? {
          name: connection.displayName || tenant?.name || domain,
          startUrl: `/api/auth/google?login_hint=${encodeURIComponent(email)}`,
        }
      : null,
    passwordSignIn: tenant?.passwordSignIn ?? true,
  };
}

/** Refuses a password sign-in when the user's district turned it off. */
export async function assertPasswordSignInAllowed(deps: Pick<SsoDeps, 'oidc'>, tenantId: string): Promise<void> {
  const tenant = await deps.oidc.findTenantSignIn(tenantId);
  if (!tenant || tenant.passwordSignIn) return;
  const connection = await deps.oidc.findConnectionOfTenant(tenantId);
  throw new PasswordSignInDisabledError(tenant.name, connection?.displayName || tenant.name);
}

/**
 * Seals every secret that is plain (written before migration 005) or sealed under
 * SECRETS_KEY_PREVIOUS with SECRETS_KEY. Returns how many changed; a secret that opens under
 * neither key is left and counted in `unreadable`.
 */
export async function resealSecrets(
  deps: Pick<SsoDeps, 'oidc' | 'secrets'>,
): Promise<{ resealed: number; unreadable: number }> {
  if (!deps.secrets.ready) return { resealed: 0, unreadable: 0 };
  let resealed = 0;
  let unreadable = 0;
  for (const connection of await deps.oidc.allConnections()) {
    if (!connection.sealedSecret || !deps.secrets.needsReseal(connection.sealedSecret)) continue;
    const context = connectionSecretContext(connection.id);
    let plain: string;
    try {
      plain = connection.sealedSecret.startsWith('v1:')
        ? deps.secrets.open(connection.sealedSecret, context)
        : connection.sealedSecret;
    } catch {
      unreadable++;
      continue;
    }
    await deps.oidc.reseal(connection.id, connection.sealedSecret, deps.secrets.seal(plain, context));
    resealed++;
  }
  return { resealed, unreadable };
}
