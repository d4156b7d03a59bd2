// Accounts: sign-up through an identity provider, password sign-in, profile and preference changes
// (a password sign-up goes by mailed link: membership.use-case.ts).
import { randomUUID } from 'node:crypto';
import { TooManyRequestsError, ValidationError } from '@checkpoint/service-kit';
import { DuplicateEmailError, type NewUser, type UsersRepository } from '../data-access/users.repository.ts';
import type { Tx } from '../data-access/prisma.ts';
import { assertAddressAllowedFor, WRONG_CURRENT_PASSWORD } from './email-links.use-case.ts';
import { EmailTakenError, InvalidCredentialsError } from './errors.ts';
import { verifyPassword } from './password.ts';
import type { Limiter, UserEventWriter } from './ports.ts';
import type { Locale } from './locales.ts';
import { normalizeEmail, type Preferences, type UserRecord, type UserRole } from './user.ts';

export interface AccountDeps {
  users: UsersRepository;
  events: UserEventWriter;
  /**
   * Mails the link that makes `newEmail` the user's address when opened (or, when another account
   * has it, a "you already have an account" note), and a notice to the old address, in the caller's
   * transaction (email-links.use-case.ts sendEmailChange). Unset: an email change is refused.
   */
  sendEmailChange?: (tx: Tx, user: UserRecord, newEmail: string, options: { addressTaken: boolean }) => Promise<void>;
  /** The pending email change's new address (its link unused and unexpired), if any. */
  pendingEmailChange?: (userId: string) => Promise<string | undefined>;
}

/** A sign-up through an identity provider (Google, a district's SSO); password sign-ups go by mailed link. */
export interface SignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  role: UserRole;
  profileImageUrl?: string | null;
  /** Set when the tenant is already known (per-tenant SSO). */
  tenantId?: string;
  externalIdentity: { issuer: string; subject: string };
  /** The address was proven (an SSO connection's provider vouched for it, D2). */
  emailVerifiedAt?: Date;
}

/**
 * Creates an account and emits UserRegistered in the same transaction. The tenant is `tenantId`
 * when membership was proven (the district's SSO connection, an email link, an invitation, a
 * roster), else a new individual space: never a district inferred from the email's domain
 * (membership.use-case.ts sends a district address a link instead).
 */
export async function registerUser(deps: AccountDeps, input: SignUpInput): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  if (await deps.users.findByEmail(email)) throw new EmailTakenError();
  const tenantId = input.tenantId;
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  const newUser: NewUser = {
    id: randomUUID(),
    email,
    firstName,
    lastName,
    role: input.role,
    profileImageUrl: input.profileImageUrl ?? null,
    ...(tenantId ? { tenantId } : { newTenant: { name: `${firstName} ${lastName}`.trim(), kind: 'individual' } }),
    externalIdentity: { ...input.externalIdentity, email },
    ...(input.emailVerifiedAt ? { emailVerifiedAt: input.emailVerifiedAt } : {}),
  };
  try {
    return await deps.users.create(newUser, (tx, user) => deps.events.registered(tx, user));
  } catch (err) {
    if (err instanceof DuplicateEmailError) throw new EmailTakenError();
    throw err;
  }
}

/**
 * Sign-in attempts are counted per account from one client address (the tight limit), per client
 * address and per account (both ceilings ten times higher). Guessing one account from one address is
 * slow; a whole school behind one address is not stopped by one child's typos; guessing one account
 * from many addresses is bounded. The per-account ceiling is not a lock: past it, an attempt from an
 * address that has not tried this account in the window (its first) is still checked, so a right
 * password is accepted and the owner is not locked out by an attacker's failures from other
 * addresses; a wrong one answers 429 like any refused attempt, and that address is then refused.
 */
export interface SignInLimits {
  perAccountAtAddress: Limiter;
  perAddress: Limiter;
  perAccount: Limiter;
}

function tooMany(retryAfterSeconds: number): TooManyRequestsError {
  return new TooManyRequestsError(
    `Too many sign-in attempts. Please wait ${retryAfterSeconds} seconds and try again.`,
    retryAfterSeconds,
  );
}

/** Checks a password; every attempt counts against each limit, a success is refunded. */
export async function signInWithPassword(
  deps: AccountDeps & { limits: SignInLimits },
  input: { email: string; password: string; address: string },
): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  const address = input.address || 'unknown';
  const counted: [Limiter, string][] = [
    [deps.limits.perAccountAtAddress, `${address} ${email}`],
    [deps.limits.perAddress, address],
    [deps.limits.perAccount, email],
  ];
  const atAddress = await deps.limits.perAccountAtAddress.consume(`${address} ${email}`);
  if (!atAddress.allowed) throw tooMany(atAddress.retryAfterSeconds);
  const fromAddress = await deps.limits.perAddress.consume(address);
  if (!fromAddress.allowed) throw tooMany(fromAddress.retryAfterSeconds);
  const forAccount = await deps.limits.perAccount.consume(email);
  // Past the account's ceiling only an address's first attempt at this account is checked.
  const pastCeiling = forAccount.allowed ? undefined : forAccount.retryAfterSeconds;
  if (pastCeiling !== undefined && atAddress.consumed !== 1) throw tooMany(pastCeiling);
  const user = await deps.users.findByEmail(email);
  const hash = user ? await deps.users.findPasswordHash(user.id) : undefined;
  const ok = await verifyPassword(hash, input.password);
  if (!ok || !user || user.disabledAt) {
    if (pastCeiling !== undefined) throw tooMany(pastCeiling);
    throw new InvalidCredentialsError();
  }
  await Promise.all(counted.map(([limiter, key]) => limiter.refund(key)));
  return user;
}

/** Profile changes are counted per user and per client address (an email-taken answer tells whether an address is registered). */
export interface ProfileLimits {
  perUser: Limiter;
  perAddress: Limiter;
}

export const CURRENT_PASSWORD_FOR_EMAIL = 'Enter your current password to change your email';
const NO_PASSWORD_FOR_EMAIL =
  'Your account has no password yet. Use “Forgot password?” on the sign-in page to set one, then change your email.';

export interface ProfileChange {
  /** Each field absent stays as it is. */
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  /** The interface language (locales.ts). */
  locale?: Locale | undefined;
  /** Needed when `email` is not the current address. */
  currentPassword?: string | undefined;
}

/**
 * PUT /api/auth/user. Names change at once. A new email needs the current password (400 naming
 * `currentPassword`), is refused when it is taken (409) or at the domain of a district the account
 * is not in (403 district_address), and is only pending: the sign-in address stays the old one
 * until the link mailed to the new address is opened (the old address is told). Returns the user
 * and the pending address.
 */
export async function updateProfile(
  deps: AccountDeps & { limits: ProfileLimits },
  userId: string,
  input: ProfileChange,
  address: string,
): Promise<{ user: UserRecord; pendingEmail?: string | undefined } | undefined> {
  for (const [limiter, key] of [
    [deps.limits.perUser, userId],
    [deps.limits.perAddress, address || 'unknown'],
  ] as const) {
    const limit = await limiter.consume(key);
    if (!limit.allowed) {
      throw new TooManyRequestsError(
        `Too many profile changes. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
        limit.retryAfterSeconds,
      );
    }
  }
  const before = await deps.users.findById(userId);
  if (!before) return undefined;
  const email = input.email === undefined ? before.email : normalizeEmail(input.email);
  const emailChanges = email !== before.email;
  if (emailChanges) {
    // Re-authentication first: a stolen session alone neither moves the account nor probes addresses.
    const stored = await deps.users.findPasswordHash(userId);
    if (!input.currentPassword) {
      const message = stored ? CURRENT_PASSWORD_FOR_EMAIL : NO_PASSWORD_FOR_EMAIL;
      throw new ValidationError(message, { currentPassword: message });
    }
    if (!(await verifyPassword(stored, input.currentPassword))) {
      const message = stored ? WRONG_CURRENT_PASSWORD : NO_PASSWORD_FOR_EMAIL;
      throw new ValidationError(message, { currentPassword: message });
    }
    await assertAddressAllowedFor(deps.users, before.tenantId, email);
  }
  // Another account's address: the change answers and shows as pending like any other (the
  // answer does not tell that the address is registered); the address gets a "you already have an
  // account" note instead of the link, so it can never move.
  const addressTaken = emailChanges && (await deps.users.findByEmail(email)) !== undefined;
  const sendEmailChange = deps.sendEmailChange;
  if (emailChanges && !sendEmailChange) throw new Error('updateProfile: an email change needs sendEmailChange');
  const user = await deps.users.updateProfile(
    userId,
    // The sign-in address stays until the new one is proven by its link.
    {
      firstName: input.firstName?.trim() ?? before.firstName,
      lastName: input.lastName?.trim() ?? before.lastName,
      ...(input.locale ? { locale: input.locale } : {}),
    },
    async (tx, updated) => {
      await deps.events.updated(tx, updated);
      if (emailChanges && sendEmailChange) await sendEmailChange(tx, updated, email, { addressTaken });
    },
  );
  if (!user) return undefined;
  return { user, pendingEmail: await deps.pendingEmailChange?.(userId) };
}

/** The switches other services act on (the analytics digest): a change of one is published. */
const NOTIFICATION_KEYS = ['emailNotifications', 'assessmentReminders', 'studentSubmissions'] as const;

export function updatePreferences(
  deps: AccountDeps,
  userId: string,
  change: Partial<Preferences>,
): Promise<UserRecord | undefined> {
  const published = NOTIFICATION_KEYS.some((key) => change[key] !== undefined);
  // UserUpdated carries the switches: written to the outbox in the same transaction as the change.
  return deps.users.updatePreferences(
    userId,
    change,
    published ? (tx, user) => deps.events.updated(tx, user) : undefined,
  );
}
