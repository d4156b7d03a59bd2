// District membership is proven, never inferred from a typed address (docs/security.md, "District
// membership"). A password sign-up creates no account: it mails a sign-up link to the address, and
// opening it creates the account (in the district that owns the address's domain, else in a new
// individual space; email-links). An invitation from the district's admin is the other way in
// handled here.
import { randomUUID } from 'node:crypto';
import { AppError, ConflictError, NotFoundError } from '@checkpoint/service-kit';
import { DuplicateEmailError } from '../data-access/users.repository.ts';
import type { MembershipRepository } from '../data-access/membership.repository.ts';
import type { AccountDeps } from './accounts.use-case.ts';
import { hashPassword } from './password.ts';
import { recordAudit } from './privacy/privacy.use-case.ts';
import type { Limiter } from './ports.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import type { Locale } from './locales.ts';
import { sha256Hex } from './tokens.ts';
import { emailDomain, normalizeEmail, type UserRecord, type UserRole } from './user.ts';

/** The mails of a password sign-up (built on email-links.use-case.ts). */
export interface SignUpMail {
  /**
   * Mails the link that creates the account when opened (purpose 'signup'): in `tenantId` (a
   * district), or without it in a new individual space.
   */
  sendSignupLink(input: {
    email: string;
    firstName: string;
    lastName: string;
    role: UserRole;
    passwordHash: string;
    tenantId?: string;
    locale?: Locale | undefined;
  }): Promise<void>;
  /** Mails "you already have an account: sign in, or reset your password" (nothing else is said). */
  sendAlreadyRegistered(input: { email: string; districtName?: string; locale?: Locale | undefined }): Promise<void>;
}

export interface MembershipDeps extends AccountDeps {
  membership: MembershipRepository;
  mail: SignUpMail;
  /**
   * Sign-up mails per address: repeated sign-ups cannot flood someone's inbox. Over the limit the
   * answer is the same 202 and no mail goes out (the earlier link still works).
   */
  mailLimit?: Limiter;
  /** Refuses (403 password_sign_in_disabled) when the district turned password sign-in off. */
  assertPasswordSignInAllowed(tenantId: string): Promise<void>;
}

export const INVITATION_NOT_FOUND =
  'This invitation has expired or was already used. Ask your district admin for a new one.';
export const INVITED_EMAIL_TAKEN =
  'An account with this email already exists. Sign in with it instead, or ask your district admin to invite another address.';

export interface PasswordSignUpOutcome {
  /** The address the link (or the "you have an account" note) went to. */
  email: string;
}

export interface PasswordSignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  role: UserRole;
  /** Students: under 13 or not (docs/adr/015). */
  ageBand?: 'under_13' | '13_or_older' | undefined;
  /** The language the form was filled in: the mail's, and the account's when the link makes it. */
  locale?: Locale | undefined;
}

export const UNDER_13_ASK_TEACHER =
  'Students under 13 do not sign up with an email. Ask your teacher for a login card or for your class code and picture.';

/**
 * `POST /api/auth/simple-signup`. Creates no account: the address gets a link that creates it
 * when opened (in the district owning the address's domain, else in a new individual space), or,
 * when it has an account already, a "you have an account" note. Both answer the same 202 after the
 * same work (the password is checked and hashed on both paths, one mail is queued), so neither the
 * answer nor its time tells who is registered.
 */
export async function signUpWithPassword(
  deps: MembershipDeps,
  input: PasswordSignUpInput,
): Promise<PasswordSignUpOutcome> {
  const email = normalizeEmail(input.email);
  const district = await deps.membership.findDistrictByDomain(emailDomain(email));
  // COPPA: an under-13 student's email is collected only under the school's authorization (the
  // district's own address); for any other class, the teacher's accounts or cards (ADR 015).
  if (input.role === 'student' && input.ageBand === 'under_13' && !district)
    throw new AppError('forbidden', 'under_13_needs_teacher', UNDER_13_ASK_TEACHER);
  if (district) await deps.assertPasswordSignInAllowed(district.id);
  assertPasswordAllowed(input.password, input.role);
  const passwordHash = await hashPassword(input.password);
  const sent = { email };
  if (deps.mailLimit && !(await deps.mailLimit.consume(email)).allowed) return sent;
  if (await deps.users.findByEmail(email)) {
    await deps.mail.sendAlreadyRegistered({
      email,
      locale: input.locale,
      ...(district ? { districtName: district.name } : {}),
    });
  } else {
    await deps.mail.sendSignupLink({
      email,
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      role: input.role,
      passwordHash,
      locale: input.locale,
      ...(district ? { tenantId: district.id } : {}),
    });
  }
  return sent;
}

export interface InvitationView {
  email: string;
  districtName: string;
  role: UserRole;
}

/** `GET /api/auth/invitations/{token}`: what the acceptance page shows; the token stays unused. */
export async function lookUpInvitation(
  deps: Pick<MembershipDeps, 'membership'>,
  token: string,
): Promise<InvitationView> {
  const invitation = await deps.membership.findPendingInvitation(sha256Hex(token));
  if (!invitation) throw new NotFoundError(INVITATION_NOT_FOUND);
  return { email: invitation.email, districtName: invitation.districtName, role: invitation.role };
}

/**
 * `POST /api/auth/invitations/accept`: the account is created in the inviting district with the
 * invited role and a verified address (the invitation went to it), and the token is used, in one
 * transaction. An address that has an account already gets 409 (moving an account between tenants
 * is not done here).
 */
export async function acceptInvitation(
  deps: MembershipDeps,
  input: { token: string; firstName: string; lastName: string; password: string },
): Promise<UserRecord> {
  const tokenHash = sha256Hex(input.token);
  const invitation = await deps.membership.findPendingInvitation(tokenHash);
  if (!invitation) throw new NotFoundError(INVITATION_NOT_FOUND);
  assertPasswordAllowed(input.password, invitation.role);
  const email = normalizeEmail(invitation.email);
  if (await deps.users.findByEmail(email)) throw new ConflictError(INVITED_EMAIL_TAKEN, 'email_taken');
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  try {
    return await deps.users.create(
      {
        id: randomUUID(),
        email,
        firstName,
        lastName,
        role: invitation.role,
        passwordHash: await hashPassword(input.password),
        tenantId: invitation.tenantId,
        // The invitation went to this address: it is proven.
        emailVerifiedAt: new Date(),
      },
      async (tx, user) => {
        // Used by this transaction or by none: a second acceptance of the same link finds it used.
        const used = await deps.membership.useInvitation(tx, tokenHash);
        if (!used || used.tenantId !== invitation.tenantId) throw new NotFoundError(INVITATION_NOT_FOUND);
        await deps.events.registered(tx, user);
        await recordAudit(tx, {
          tenantId: user.tenantId,
          actorId: user.id,
          actorRole: user.role,
          action: 'change',
          resource: 'POST /api/auth/invitations/accept',
          targetIds: [user.id],
          event: 'invitation.accepted',
          details: { role: user.role, invitation: tokenHash },
        });
      },
    );
  } catch (err) {
    if (err instanceof DuplicateEmailError) throw new ConflictError(INVITED_EMAIL_TAKEN, 'email_taken');
    throw err;
  }
}
