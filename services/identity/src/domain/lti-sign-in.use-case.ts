// Sign-in from a verified LTI 1.3 launch (docs/adr/014-lti.md). The integrations service verified
// the platform's id_token and knows the district (the registration's); it calls here (internal
// route, service token) with the LMS user. The account of THAT district is found by the LMS user id
// first, then by a vouched email under district SSO's no-takeover rules (ADR 008,
// oidc.use-case.ts finishOidcSignIn), else created; then a one-time sign-in (handoff) is opened,
// which the browser redeems at /api/auth/lti/handoff for the ordinary session cookies.
import { createHash, randomUUID } from 'node:crypto';
import { AppError, NotFoundError } from '@checkpoint/service-kit';
import { DuplicateEmailError } from '../data-access/users.repository.ts';
import type { LtiRepository, LtiSubject } from '../data-access/lti.repository.ts';
import type { AccountDeps } from './accounts.use-case.ts';
import { appPath } from './oidc.use-case.ts';
import { randomToken, sha256Hex } from './tokens.ts';
import { emailDomain, normalizeEmail, type UserRecord, type UserRole } from './user.ts';

export interface LtiSignInDeps extends AccountDeps {
  lti: LtiRepository;
  publicUrl: string;
  /** How long a handoff waits for the browser (seconds). */
  handoffTtlSeconds: number;
}

export interface LtiSignInInput extends LtiSubject {
  /** The LMS's `email` claim, if it sent one. */
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  /** The role integrations mapped from the LMS roles (admin only when the registration allows it). */
  role: UserRole;
}

export interface LtiSignInResult {
  user: { id: string; role: UserRole; tenantId: string; firstName: string; lastName: string };
  /** 'created': a new account; 'linked': an existing account found by email and mapped; 'found': mapped before. */
  outcome: 'created' | 'linked' | 'found';
}

export interface LtiHandoff {
  handoffToken: string;
  /** The first-party URL the browser opens (a new window when the launch is in the LMS's iframe). */
  handoffUrl: string;
  handoffExpiresAt: string;
}

/** Why an LMS user cannot be signed in: `code` names the rule (the launch page explains it). */
export class LtiSignInRefused extends AppError {
  constructor(code: 'lti_account_disabled' | 'lti_wrong_district' | 'lti_account_not_verified', message: string) {
    super('forbidden', code, message);
  }
}

/**
 * The address an LMS user without a usable email is created with: under the reserved `.invalid`
 * domain (RFC 2606), as the roster does (plan.ts placeholderEmail), so no mail goes there and no
 * one can sign up with it; such a user signs in from the LMS.
 */
export function ltiPlaceholderEmail(s: Pick<LtiSubject, 'tenantId' | 'issuer' | 'subject'>): string {
  const digest = createHash('sha256')
    .update(`${s.tenantId}\u0000${s.issuer}\u0000${s.subject}`)
    .digest('hex')
    .slice(0, 20);
  return `lti-${digest}@lti.invalid`;
}

export async function ltiSignIn(deps: LtiSignInDeps, input: LtiSignInInput): Promise<LtiSignInResult> {
  const tenant = await deps.users.findTenant(input.tenantId);
  // Registrations are made by a district's (or school's) admin: nothing else can name a tenant here.
  if (!tenant || tenant.kind === 'individual') throw new NotFoundError('No such district');
  const { user, outcome } = await findOrCreate(deps, input, tenant.emailDomains);
  return {
    user: {
      id: user.id,
      role: user.role,
      tenantId: user.tenantId,
      firstName: user.firstName,
      lastName: user.lastName,
    },
    outcome,
  };
}

/**
 * Opens a one-time sign-in of an account of the tenant (one integrations just found or created):
 * the token is returned once, its SHA-256 kept; `returnTo` must be a path of the app.
 */
export async function openLtiHandoff(
  deps: LtiSignInDeps,
  input: { tenantId: string; userId: string; returnTo: string },
): Promise<LtiHandoff> {
  const user = await deps.users.findById(input.userId);
  if (!user || user.tenantId !== input.tenantId) throw new NotFoundError('No such account in this district');
  if (user.disabledAt) throw disabled();
  const handoffToken = randomToken();
  const expiresAt = new Date(Date.now() + deps.handoffTtlSeconds * 1000);
  await deps.lti.createHandoff(
    sha256Hex(handoffToken),
    user.id,
    appPath(input.returnTo, deps.publicUrl) ?? '/',
    expiresAt,
  );
  return {
    handoffToken,
    handoffUrl: `${deps.publicUrl}/api/auth/lti/handoff?token=${handoffToken}`,
    handoffExpiresAt: expiresAt.toISOString(),
  };
}

async function findOrCreate(
  deps: LtiSignInDeps,
  input: LtiSignInInput,
  districtDomains: string[],
): Promise<{ user: UserRecord; outcome: LtiSignInResult['outcome'] }> {
  const subject: LtiSubject = {
    tenantId: input.tenantId,
    issuer: input.issuer,
    clientId: input.clientId,
    subject: input.subject,
  };
  for (let attempt = 1; ; attempt++) {
    // 1. The LMS user id, in this district only (the key names the tenant).
    const known = await deps.lti.findUser(subject);
    if (known) {
      if (known.disabledAt) throw disabled();
      return { user: known, outcome: 'found' };
    }
    // 2. A vouched email. An LTI launch carries no email_verified claim: the address is vouched
    // for when it is at one of the district's own domains (its LMS is the district's, registered by
    // its admin; as a connection's allowed domains in SSO). Another address is never matched.
    const email = input.email ? normalizeEmail(input.email) : undefined;
    const vouched = email !== undefined && districtDomains.includes(emailDomain(email));
    if (email && vouched) {
      const byEmail = await deps.users.findByEmail(email);
      if (byEmail) {
        // The rules of finishOidcSignIn: a disabled account, another district's, or an address never proven is refused.
        if (byEmail.disabledAt) throw disabled();
        if (byEmail.tenantId !== input.tenantId)
          throw new LtiSignInRefused(
            'lti_wrong_district',
            'An account with this email belongs to another district or to an individual account',
          );
        // D3: link only to an account whose address was proven; else whoever signed up with the
        // address (unverified) would receive the owner's LMS sign-in.
        if (!byEmail.emailVerifiedAt)
          throw new LtiSignInRefused(
            'lti_account_not_verified',
            'A Checkpoint account with this email exists but its address was never verified: verify it first, then launch again',
          );
        if (await deps.lti.link(byEmail.id, subject)) return { user: byEmail, outcome: 'linked' };
        if (attempt < 2) continue;
      }
    }
    // 3. A new account of the district, with the mapped role.
    try {
      const user = await deps.users.create(
        {
          id: randomUUID(),
          tenantId: input.tenantId,
          email: email && vouched ? email : ltiPlaceholderEmail(subject),
          firstName: (input.firstName?.trim() || 'LMS').slice(0, 100),
          lastName: (input.lastName?.trim() || 'user').slice(0, 100),
          role: input.role,
          profileImageUrl: null,
          ...(email && vouched ? { emailVerifiedAt: new Date() } : {}),
        },
        async (tx, created) => {
          await deps.events.registered(tx, created);
          if (!(await deps.lti.link(created.id, subject, tx))) throw new DuplicateEmailError();
        },
      );
      return { user, outcome: 'created' };
    } catch (err) {
      // A concurrent launch of the same LMS user created it a moment ago: find it once more.
      if (err instanceof DuplicateEmailError && attempt < 2) continue;
      throw err;
    }
  }
}

const disabled = () => new LtiSignInRefused('lti_account_disabled', 'This Checkpoint account is disabled');

/** Redeems a handoff once: the user to start a session for and where to go; undefined when unknown, used or expired. */
export async function redeemLtiHandoff(
  deps: Pick<LtiSignInDeps, 'lti' | 'users'>,
  token: string,
): Promise<{ user: UserRecord; returnTo: string } | undefined> {
  const handoff = await deps.lti.takeHandoff(sha256Hex(token));
  if (!handoff) return undefined;
  const user = await deps.users.findById(handoff.userId);
  if (!user || user.disabledAt) return undefined;
  return { user, returnTo: handoff.returnTo };
}
