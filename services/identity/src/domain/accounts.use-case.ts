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

export interface SignInLimits {
  perIp: Limiter;
  perEmail: Limiter;
}

function tooMany(retryAfterSeconds: number): TooManyRequestsError {
  return new TooManyRequestsError(
    `Too many sign-in attempts. Please wait ${retryAfterSeconds} seconds and try again.`,
    retryAfterSeconds,
  );
}

/** Checks a password; every attempt counts against the IP and the email, a success is refunded. */
export async function signInWithPassword(
  deps: AccountDeps & { limits: SignInLimits },
  input: { email: string; password: string; ip: string },
): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  const ipKey = input.ip || 'unknown';
  const byIp = await deps.limits.perIp.consume(ipKey);
  if (!byIp.allowed) throw tooMany(byIp.retryAfterSeconds);
  const byEmail = await deps.limits.perEmail.consume(email);
  if (!byEmail.allowed) throw tooMany(byEmail.retryAfterSeconds);
  const user = await deps.users.findByEmail(email);
  const hash = user ? await deps.users.findPasswordHash(user.id) : undefined;
  const ok = await verifyPassword(hash, input.password);
  if (!ok || !user || user.disabledAt) throw new InvalidCredentialsError();
  await Promise.all([deps.limits.perIp.refund(ipKey), deps.limits.perEmail.refund(email)]);
  return user;
}

export async function updateProfile(
  deps: AccountDeps,
  userId: string,
  input: { firstName: string; lastName: string; email: string },
): Promise<UserRecord | undefined> {
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
