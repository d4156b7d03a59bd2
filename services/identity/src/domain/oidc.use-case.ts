// Sign-in with Google or a tenant's own OpenID Connect provider: authorization code flow with
// PKCE, state and nonce (openid-client), then account lookup, linking or a pending sign-up.
import * as oidc from 'openid-client';
import { AppError, ServiceUnavailableError, ValidationError } from '@checkpoint/service-kit';
import type { OidcRepository, SsoConnectionRecord } from '../data-access/oidc.repository.ts';
import type { UsersRepository } from '../data-access/users.repository.ts';
import { registerUser, type AccountDeps } from './accounts.use-case.ts';
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

  constructor(private readonly options: { publicUrl: string; platform: ProviderSettings | undefined }) {
    this.redirectUri = `${options.publicUrl}/api/auth/google/callback`;
  }

  get platform(): ProviderSettings | undefined {
    return this.options.platform;
  }

  configFor(provider: ProviderSettings): Promise<oidc.Configuration> {
    const key = `${provider.issuer}\n${provider.clientId}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < 3_600_000) return hit.config;
    const url = new URL(provider.issuer);
    // Plain http only for a provider on this machine (development and tests).
    const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    const config = oidc.discovery(
      url,
      provider.clientId,
      provider.clientSecret,
      undefined,
      local ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
    this.cache.set(key, { at: Date.now(), config });
    config.catch(() => this.cache.delete(key));
    return config;
  }
}

export interface OidcDeps extends AccountDeps {
  oidc: OidcRepository;
  clients: OidcClients;
}

/** A failed callback: the browser is sent back to the sign-in page, the reason is logged. */
export class OidcSignInError extends AppError {
  constructor(reason: string) {
    super(400, 'oidc_failed', reason);
  }
}

/** No provider for this sign-in: 503 by contract, but asked for by anyone, so not a failure of ours. */
export class SignInNotConfiguredError extends ServiceUnavailableError {
  constructor() {
    super('Google sign-in is not configured');
  }
}

async function providerFor(deps: OidcDeps, connection: SsoConnectionRecord | undefined): Promise<ProviderSettings> {
  if (connection) return connection;
  if (!deps.clients.platform) throw new SignInNotConfiguredError();
  return deps.clients.platform;
}

/** Starts a sign-in; returns where to send the browser and the token for the flow cookie. */
export async function beginOidcSignIn(
  deps: OidcDeps,
  input: { emailHint?: string },
): Promise<{ url: string; flowToken: string }> {
  const hint = input.emailHint ? normalizeEmail(input.emailHint) : undefined;
  const connection = hint ? await deps.oidc.findConnectionByDomain(emailDomain(hint)) : undefined;
  const provider = await providerFor(deps, connection);
  const config = await deps.clients.configFor(provider).catch((err: unknown) => {
    throw new ServiceUnavailableError(`Sign-in provider unavailable: ${(err as Error).message}`);
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
  return { url: oidc.buildAuthorizationUrl(config, params).href, flowToken };
}

export type OidcSignInResult =
  { kind: 'signed-in'; user: UserRecord } | { kind: 'pending-signup'; pendingToken: string };

/**
 * Completes the code flow (openid-client checks state, nonce, issuer, audience, signature and
 * expiry) and finds, links or prepares the account.
 */
export async function finishOidcSignIn(
  deps: OidcDeps,
  input: { flowToken: string | undefined; callbackUrl: URL },
): Promise<OidcSignInResult> {
  if (!input.flowToken) throw new OidcSignInError('no sign-in in progress (missing flow cookie)');
  const flow = await deps.oidc.takeFlow(sha256Hex(input.flowToken));
  if (!flow) throw new OidcSignInError('sign-in expired or already used');
  const connection = flow.connectionId ? await deps.oidc.findConnection(flow.connectionId) : undefined;
  if (flow.connectionId && !connection) throw new OidcSignInError('SSO connection removed');
  const provider = await providerFor(deps, connection);
  const config = await deps.clients.configFor(provider);
  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const c = tokens.claims();
    if (!c) throw new Error('no ID token');
    claims = c;
  } catch (err) {
    throw new OidcSignInError(`token validation failed: ${(err as Error).message}`);
  }

  const issuer = claims.iss;
  const subject = claims.sub;
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : undefined;
  const emailVerified = claims.email_verified === true || claims.email_verified === 'true';
  const tenantId = await checkTenant(deps.users, { issuer, email, hd: claims.hd, connection });

  const known = await deps.users.findByExternalIdentity(issuer, subject);
  if (known) {
    if (known.disabledAt) throw new OidcSignInError('account disabled');
    if (connection && known.tenantId !== connection.tenantId)
      throw new OidcSignInError('account belongs to another tenant');
    return { kind: 'signed-in', user: known };
  }
  if (!email || !emailVerified) throw new OidcSignInError('the provider did not return a verified email');
  const byEmail = await deps.users.findByEmail(email);
  if (byEmail) {
    if (byEmail.disabledAt) throw new OidcSignInError('account disabled');
    if (tenantId && byEmail.tenantId !== tenantId) throw new OidcSignInError('account belongs to another tenant');
    await deps.users.linkExternalIdentity(byEmail.id, { issuer, subject, email });
    return { kind: 'signed-in', user: byEmail };
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
  });
  return { kind: 'pending-signup', pendingToken };
}

/**
 * The tenant this identity must belong to, if any. A tenant connection admits only its domains;
 * for Google, a district/school email domain is accepted only with the matching `hd` claim (an
 * ordinary Google account can carry any email address).
 */
async function checkTenant(
  users: UsersRepository,
  input: { issuer: string; email: string | undefined; hd: unknown; connection: SsoConnectionRecord | undefined },
): Promise<string | undefined> {
  const domain = input.email ? emailDomain(input.email) : '';
  if (input.connection) {
    if (input.connection.emailDomains.length > 0 && !input.connection.emailDomains.includes(domain)) {
      throw new OidcSignInError(`email domain ${domain || '(none)'} not allowed by the tenant's connection`);
    }
    return input.connection.tenantId;
  }
  const tenantId = await users.findTenantIdByDomain(domain);
  if (tenantId && input.issuer === GOOGLE_ISSUER) {
    const tenant = await users.findTenant(tenantId);
    if (
      tenant &&
      tenant.emailDomains.length > 0 &&
      !(typeof input.hd === 'string' && tenant.emailDomains.includes(input.hd.toLowerCase()))
    ) {
      throw new OidcSignInError(`Google account is not managed by ${domain} (hd claim missing or different)`);
    }
  }
  return tenantId;
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
  });
  await deps.oidc.deletePendingSignup(tokenHash);
  return user;
}
