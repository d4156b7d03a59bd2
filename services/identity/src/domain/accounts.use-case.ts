// Password sign-up and sign-in, profile and preference changes.
import { randomUUID } from 'node:crypto';
import { TooManyRequestsError } from '@checkpoint/service-kit';
import { DuplicateEmailError, type NewUser, type UsersRepository } from '../data-access/users.repository.ts';
import { EmailTakenError, InvalidCredentialsError } from './errors.ts';
import { hashPassword, verifyPassword } from './password.ts';
import type { Limiter, UserEventWriter } from './ports.ts';
import { emailDomain, normalizeEmail, type Preferences, type UserRecord, type UserRole } from './user.ts';

export interface AccountDeps {
  users: UsersRepository;
  events: UserEventWriter;
}

export interface SignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  password?: string;
  role: UserRole;
  profileImageUrl?: string | null;
  /** Set when the tenant is already known (per-tenant SSO). */
  tenantId?: string;
  externalIdentity?: { issuer: string; subject: string };
}

/**
 * Creates an account and emits UserRegistered in the same transaction. The tenant is the
 * district or school owning the email's domain, else a new individual space.
 */
export async function registerUser(deps: AccountDeps, input: SignUpInput): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  if (await deps.users.findByEmail(email)) throw new EmailTakenError();
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  const tenantId = input.tenantId ?? (await deps.users.findTenantIdByDomain(emailDomain(email)));
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  const newUser: NewUser = {
    id: randomUUID(),
    email,
    firstName,
    lastName,
    role: input.role,
    profileImageUrl: input.profileImageUrl ?? null,
    ...(passwordHash ? { passwordHash } : {}),
    ...(tenantId ? { tenantId } : { newTenant: { name: `${firstName} ${lastName}`.trim(), kind: 'individual' } }),
    ...(input.externalIdentity ? { externalIdentity: { ...input.externalIdentity, email } } : {}),
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
 * from many addresses is bounded; and an attacker's failures from their own addresses do not lock
 * the owner out of their account from another one.
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
  for (const [limiter, key] of counted) {
    const limit = await limiter.consume(key);
    if (!limit.allowed) throw tooMany(limit.retryAfterSeconds);
  }
  const user = await deps.users.findByEmail(email);
  const hash = user ? await deps.users.findPasswordHash(user.id) : undefined;
  const ok = await verifyPassword(hash, input.password);
  if (!ok || !user || user.disabledAt) throw new InvalidCredentialsError();
  await Promise.all(counted.map(([limiter, key]) => limiter.refund(key)));
  return user;
}

/** Profile changes are counted per user and per client address (an email-taken answer tells whether an address is registered). */
export interface ProfileLimits {
  perUser: Limiter;
  perAddress: Limiter;
}

export async function updateProfile(
  deps: AccountDeps & { limits: ProfileLimits },
  userId: string,
  input: { firstName: string; lastName: string; email: string },
  address: string,
): Promise<UserRecord | undefined> {
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
  const email = normalizeEmail(input.email);
  const other = await deps.users.findByEmail(email);
  if (other && other.id !== userId) throw new EmailTakenError();
  try {
    return await deps.users.updateProfile(
      userId,
      { firstName: input.firstName.trim(), lastName: input.lastName.trim(), email },
      (tx, user) => deps.events.updated(tx, user),
    );
  } catch (err) {
    if (err instanceof DuplicateEmailError) throw new EmailTakenError();
    throw err;
  }
}

export function updatePreferences(
  deps: AccountDeps,
  userId: string,
  change: Partial<Preferences>,
): Promise<UserRecord | undefined> {
  return deps.users.updatePreferences(userId, change);
}
