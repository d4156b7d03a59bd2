// Sign-in with Google or a district's own OpenID Connect provider: authorization code flow with
// PKCE, state and nonce (openid-client), then account lookup, linking (D3) or a pending sign-up.
// The browser is never shown a JSON page: every refusal carries a code the sign-in page explains.
import { compactVerify, createRemoteJWKSet } from 'jose';
import * as oidc from 'openid-client';
import { AppError, isLoopbackHost, ValidationError } from '@checkpoint/service-kit';
import type { OidcRepository, SsoConnectionRecord } from '../data-access/oidc.repository.ts';
import type { UsersRepository } from '../data-access/users.repository.ts';
import { registerUser, type AccountDeps } from './accounts.use-case.ts';
import type { SecretBox } from './secret-box.ts';
import { connectionSecretContext, entraTenantOf, sameIssuer } from './sso-connection.ts';
import { randomToken, sha256Hex } from './tokens.ts';
import { emailDomain, normalizeEmail, type UserRecord, type UserRole } from './user.ts';

export const GOOGLE_ISSUER = 'https://accounts.google.com';
const FLOW_TTL_MS = 10 * 60_000;
const PENDING_TTL_MS = 15 * 60_000;

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Discovered provider configurations, cached per issuer and client. */
export class OidcClients {
  readonly redirectUri: string;
  private readonly cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(private readonly options: { publicUrl: string; platform: ProviderSettings | undefined }) {
    this.redirectUri = `${options.publicUrl}/api/auth/google/callback`;
  }

  get platform(): ProviderSettings | undefined {
    return this.options.platform;
  }

  get publicUrl(): string {
    return this.options.publicUrl;
  }

  configFor(provider: ProviderSettings): Promise<oidc.Configuration> {
    // The secret is part of the key: a connection saved with a new secret gets a new client.
    const key = `${provider.issuer}\n${provider.clientId}\n${sha256Hex(provider.clientSecret)}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < 3_600_000) return hit.config;
    const config = discover(provider);
    this.cache.set(key, { at: Date.now(), config });
    config.catch(() => this.cache.delete(key));
    return config;
  }

  /**
   * Checks the ID token's signature with the provider's published keys (openid-client trusts the
   * token endpoint's channel and does not). A key it has not seen makes it fetch the key set again
   * (at most every few seconds), so a provider that rotates its keys keeps working.
   */
  async verifySignature(config: oidc.Configuration, idToken: string): Promise<void> {
    const jwksUri = config.serverMetadata().jwks_uri;
    if (!jwksUri) throw new Error('the provider publishes no jwks_uri');
    let keySet = this.keySets.get(jwksUri);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(jwksUri), {
        cacheMaxAge: 10 * 60_000,
        cooldownDuration: 2_000,
        timeoutDuration: 10_000,
      });
      this.keySets.set(jwksUri, keySet);
    }
    await compactVerify(idToken, keySet);
  }
}

/** Provider discovery (`/.well-known/openid-configuration`), uncached: also the check when a connection is saved. */
export function discover(provider: ProviderSettings): Promise<oidc.Configuration> {
  const url = new URL(provider.issuer);
  // Plain http only for a provider on this machine (development and tests).
  const local = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  return oidc.discovery(
    url,
    provider.clientId,
    provider.clientSecret,
    undefined,
    local ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
  );
}

export interface OidcDeps extends AccountDeps {
  oidc: OidcRepository;
  clients: OidcClients;
  secrets: SecretBox;
}

/**
 * Why a sign-in through a provider was refused: `code` goes to the sign-in page
 * (`/auth?error=<code>`), which explains it; the reason is logged.
 */
export type SignInErrorCode =
  | 'google_signin_failed'
  | 'google_not_configured'
  | 'provider_unavailable'
  | 'sso_unavailable'
  | 'sso_invalid_request'
  | 'account_not_verified'
  | 'email_not_verified'
  | 'domain_not_allowed'
  | 'wrong_district'
  | 'account_disabled';

export class OidcSignInError extends AppError {
  constructor(
    reason: string,
    readonly redirectCode: SignInErrorCode = 'google_signin_failed',
  ) {
    super('invalid', 'oidc_failed', reason);
  }
}

/** No provider for this sign-in (Google without OIDC_CLIENT_ID): anyone can ask, not a failure of ours. */
export class SignInNotConfiguredError extends OidcSignInError {
  constructor() {
    super('Google sign-in is not configured', 'google_not_configured');
  }
}

function providerFor(deps: OidcDeps, connection: SsoConnectionRecord | undefined): ProviderSettings {
  if (connection) {
    let clientSecret: string;
    try {
      clientSecret = deps.secrets.open(connection.sealedSecret, connectionSecretContext(connection.id));
    } catch (err) {
      throw new OidcSignInError(
        `client secret of connection ${connection.id}: ${(err as Error).message}`,
        'sso_unavailable',
      );
    }
    return { issuer: connection.issuer, clientId: connection.clientId, clientSecret };
  }
  if (!deps.clients.platform) throw new SignInNotConfiguredError();
  return deps.clients.platform;
}

/**
 * Starts a sign-in; returns where to send the browser and the token for the flow cookie. The
 * provider is the given connection (a sign-in the provider started), else the enabled connection
 * of the hinted email's domain, else the platform's (Google).
 */
export async function beginOidcSignIn(
  deps: OidcDeps,
  input: { emailHint?: string; connection?: SsoConnectionRecord; returnTo?: string },
): Promise<{ url: string; flowToken: string }> {
  const hint = input.emailHint ? normalizeEmail(input.emailHint) : undefined;
  const connection = input.connection ?? (hint ? await deps.oidc.findConnectionByDomain(emailDomain(hint)) : undefined);
  const provider = providerFor(deps, connection);
  const config = await deps.clients.configFor(provider).catch((err: unknown) => {
    throw new OidcSignInError(
      `provider ${provider.issuer} unavailable: ${(err as Error).message}`,
      'provider_unavailable',
    );
  });
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const flowToken = randomToken();
  await deps.oidc.saveFlow({
    id: sha256Hex(flowToken),
    state,
    nonce,
    codeVerifier,
    connectionId: connection?.id ?? null,
    expiresAt: new Date(Date.now() + FLOW_TTL_MS),
    returnTo: input.returnTo ?? null,
  });
  const params: Record<string, string> = {
    redirect_uri: deps.clients.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };
  if (hint) params.login_hint = hint;
  // Google shows only the district's Workspace accounts.
  if (connection?.kind === 'google' && connection.emailDomains.length === 1) params.hd = connection.emailDomains[0]!;
  return { url: oidc.buildAuthorizationUrl(config, params).href, flowToken };
}

/**
 * A sign-in the provider starts (OpenID Connect Core §4, third-party initiated login): the
 * connection must exist and be enabled and `iss` must be its issuer; then the usual code flow
 * starts (state, nonce, PKCE), so nothing the provider sent is trusted beyond the hint.
 */
export async function initiateOidcSignIn(
  deps: OidcDeps,
  input: { connectionId: string; iss: string; loginHint?: string; targetLinkUri?: string },
): Promise<{ url: string; flowToken: string }> {
  const connection = await deps.oidc.findConnection(input.connectionId);
  if (!connection || !connection.enabled) {
    throw new OidcSignInError(`connection ${input.connectionId} unknown or disabled`, 'sso_unavailable');
  }
  if (!sameIssuer(input.iss, connection.issuer)) {
    throw new OidcSignInError(`iss ${input.iss} is not the connection's issuer`, 'sso_invalid_request');
  }
  const returnTo = input.targetLinkUri ? appPath(input.targetLinkUri, deps.clients.publicUrl) : undefined;
  return beginOidcSignIn(deps, {
    connection,
    ...(input.loginHint ? { emailHint: input.loginHint } : {}),
    ...(returnTo ? { returnTo } : {}),
  });
}

/** A target inside the app (same origin, or a path): its path; anything else is ignored (no open redirect). */
export function appPath(target: string, publicUrl: string): string | undefined {
  try {
    const base = new URL(publicUrl);
    const url = new URL(target, base);
    if (url.origin !== base.origin) return undefined;
    const path = url.pathname + url.search + url.hash;
    return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/api/') ? path : undefined;
  } catch {
    return undefined;
  }
}

export type OidcSignInResult =
  { kind: 'signed-in'; user: UserRecord; returnTo: string } | { kind: 'pending-signup'; pendingToken: string };

/**
 * Completes the code flow (openid-client checks state, nonce, issuer, audience, signature and
 * expiry), applies the connection's rules and finds, links (D3) or prepares the account.
 */
export async function finishOidcSignIn(
  deps: OidcDeps,
  input: { flowToken: string | undefined; callbackUrl: URL },
): Promise<OidcSignInResult> {
  if (!input.flowToken) throw new OidcSignInError('no sign-in in progress (missing flow cookie)');
  const flow = await deps.oidc.takeFlow(sha256Hex(input.flowToken));
  if (!flow) throw new OidcSignInError('sign-in expired or already used');
  const connection = flow.connectionId ? await deps.oidc.findConnection(flow.connectionId) : undefined;
  if (flow.connectionId && (!connection || !connection.enabled)) {
    throw new OidcSignInError('SSO connection removed or disabled', 'sso_unavailable');
  }
  const provider = providerFor(deps, connection);
  const config = await deps.clients.configFor(provider).catch((err: unknown) => {
    throw new OidcSignInError(
      `provider ${provider.issuer} unavailable: ${(err as Error).message}`,
      'provider_unavailable',
    );
  });
  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const c = tokens.claims();
    if (!c || !tokens.id_token) throw new Error('no ID token');
    await deps.clients.verifySignature(config, tokens.id_token);
    claims = c;
  } catch (err) {
    throw new OidcSignInError(`token validation failed: ${(err as Error).message}`);
  }

  const issuer = claims.iss;
  const subject = claims.sub;
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : undefined;
  const { tenantId, vouched } = connection
    ? checkConnectionClaims(connection, claims, email)
    : await checkPlatformClaims(deps.users, { issuer, email, claims });

  const known = await deps.users.findByExternalIdentity(issuer, subject);
  if (known) {
    if (known.disabledAt) throw new OidcSignInError('account disabled', 'account_disabled');
    if (connection && known.tenantId !== connection.tenantId) {
      throw new OidcSignInError('account belongs to another tenant', 'wrong_district');
    }
    return { kind: 'signed-in', user: known, returnTo: flow.returnTo ?? '/' };
  }
  if (!email || !vouched) {
    throw new OidcSignInError('the provider did not return a verified email', 'email_not_verified');
  }
  const byEmail = await deps.users.findByEmail(email);
  if (byEmail) {
    if (byEmail.disabledAt) throw new OidcSignInError('account disabled', 'account_disabled');
    if (tenantId && byEmail.tenantId !== tenantId) {
      throw new OidcSignInError('account belongs to another tenant', 'wrong_district');
    }
    // D3: link only to an account whose address was proven. Otherwise whoever signed up with a
    // password using someone else's address (unverified) would receive the owner's provider sign-in.
    if (!byEmail.emailVerifiedAt) {
      throw new OidcSignInError('existing account with this email is not verified', 'account_not_verified');
    }
    await deps.users.linkExternalIdentity(byEmail.id, { issuer, subject, email });
    return { kind: 'signed-in', user: byEmail, returnTo: flow.returnTo ?? '/' };
  }
  const pendingToken = randomToken();
  const given = typeof claims.given_name === 'string' ? claims.given_name : undefined;
  const family = typeof claims.family_name === 'string' ? claims.family_name : undefined;
  const [first, ...rest] = (typeof claims.name === 'string' ? claims.name : (email.split('@')[0] ?? '')).split(' ');
  await deps.oidc.savePendingSignup({
    tokenHash: sha256Hex(pendingToken),
    issuer,
    subject,
    email,
    firstName: (given ?? first ?? '').slice(0, 100) || 'User',
    lastName: (family ?? rest.join(' ')).slice(0, 100),
    profileImageUrl: typeof claims.picture === 'string' ? claims.picture.slice(0, 2000) : null,
    tenantId: tenantId ?? null,
    expiresAt: new Date(Date.now() + PENDING_TTL_MS),
    emailVerified: vouched,
  });
  return { kind: 'pending-signup', pendingToken };
}

function emailVerifiedClaim(claims: oidc.IDToken): boolean {
  return claims.email_verified === true || claims.email_verified === 'true';
}

/**
 * The rules of a district's connection: the address must be at one of its allowed domains; Google
 * must say the account is managed by one of them (`hd`); Entra must name the connection's
 * directory (`tid`). The provider vouches for the address when it says email_verified (Entra,
 * which rarely sends it: when it says the domain owner verified it, `xms_edov`).
 */
export function checkConnectionClaims(
  connection: SsoConnectionRecord,
  claims: oidc.IDToken,
  email: string | undefined,
): { tenantId: string; vouched: boolean } {
  const domain = email ? emailDomain(email) : '';
  if (!connection.emailDomains.includes(domain)) {
    throw new OidcSignInError(
      `email domain ${domain || '(none)'} not allowed by the district's connection`,
      'domain_not_allowed',
    );
  }
  let vouched = emailVerifiedClaim(claims);
  if (connection.kind === 'google') {
    const hd = typeof claims.hd === 'string' ? claims.hd.toLowerCase() : undefined;
    if (!hd || !connection.emailDomains.includes(hd)) {
      throw new OidcSignInError(
        `Google account not managed by the district (hd ${hd ?? 'missing'})`,
        'domain_not_allowed',
      );
    }
  }
  if (connection.kind === 'entra') {
    const tid = entraTenantOf(connection.issuer);
    if (!tid || claims.tid !== tid || !sameIssuer(claims.iss, connection.issuer)) {
      throw new OidcSignInError(`Entra directory ${String(claims.tid)} is not the connection's`, 'wrong_district');
    }
    vouched ||= claims.xms_edov === true || claims.xms_edov === 'true' || claims.xms_edov === 1;
  }
  return { tenantId: connection.tenantId, vouched };
}

/**
 * The platform provider (Google): an address at a district's domain is accepted only with the
 * matching `hd` claim (an ordinary Google account can carry any email address); then it belongs
 * to that district.
 */
async function checkPlatformClaims(
  users: UsersRepository,
  input: { issuer: string; email: string | undefined; claims: oidc.IDToken },
): Promise<{ tenantId: string | undefined; vouched: boolean }> {
  const domain = input.email ? emailDomain(input.email) : '';
  const tenantId = await users.findTenantIdByDomain(domain);
  if (tenantId && input.issuer === GOOGLE_ISSUER) {
    const tenant = await users.findTenant(tenantId);
    const hd = input.claims.hd;
    if (
      tenant &&
      tenant.emailDomains.length > 0 &&
      !(typeof hd === 'string' && tenant.emailDomains.includes(hd.toLowerCase()))
    ) {
      throw new OidcSignInError(
        `Google account is not managed by ${domain} (hd claim missing or different)`,
        'domain_not_allowed',
      );
    }
  }
  return { tenantId, vouched: emailVerifiedClaim(input.claims) };
}

/** Creates the account of a pending sign-up with the chosen role. */
export async function completeOidcSignUp(
  deps: OidcDeps,
  input: { pendingToken: string | undefined; role: UserRole },
): Promise<UserRecord> {
  const tokenHash = input.pendingToken ? sha256Hex(input.pendingToken) : undefined;
  const pending = tokenHash ? await deps.oidc.findPendingSignup(tokenHash) : undefined;
  if (!tokenHash || !pending) {
    throw new ValidationError('No Google sign-up in progress. Please sign in with Google again.');
  }
  const user = await registerUser(deps, {
    firstName: pending.firstName,
    lastName: pending.lastName,
    email: pending.email,
    role: input.role,
    profileImageUrl: pending.profileImageUrl,
    ...(pending.tenantId ? { tenantId: pending.tenantId } : {}),
    externalIdentity: { issuer: pending.issuer, subject: pending.subject },
    // D2: the provider vouched for the address.
    ...(pending.emailVerified ? { emailVerifiedAt: new Date() } : {}),
  });
  await deps.oidc.deletePendingSignup(tokenHash);
  return user;
}
