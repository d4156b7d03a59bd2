// Onboards a district or school (`npm run create-district`): the tenant with its email domains and
// its first admin, in one transaction with the admin's UserRegistered event (outbox), as the demo
// seed does. The admin gets no password: the operator vouches for the address (it counts as
// verified), and the admin signs in through the district's SSO connection or sets a password
// with "Forgot password?" (a reset link creates the missing credential).
import { randomUUID } from 'node:crypto';
import { EMAIL } from '@checkpoint/service-kit';
import { DuplicateEmailError, type UsersRepository } from '../data-access/users.repository.ts';
import type { Tx } from '../data-access/prisma.ts';
import type { UserEventWriter } from './ports.ts';
import { emailDomain, normalizeEmail, type UserRecord } from './user.ts';

/** The command refuses: the message names the option and says why, for the operator who typed it. */
export class CreateDistrictRefusedError extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(`${option}: ${message}`);
  }
}

export const DISTRICT_KINDS = ['district', 'school'] as const;
export type DistrictKind = (typeof DISTRICT_KINDS)[number];

export const DISTRICT_NAME_MAX = 120;
/** As sign-up's first and last names (api/auth.schemas.ts). */
const PERSON_NAME_MAX = 100;

/**
 * Mail providers where anyone can have an address: such a domain proves no membership, and a
 * district owning it would offer every one of their users a sign-up link into the district. Not
 * exhaustive: the providers people most often type, with their national variants.
 */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'passport.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'hotmail.it',
  'hotmail.es',
  'outlook.fr',
  'outlook.de',
  'outlook.es',
  'outlook.it',
  'live.co.uk',
  'live.fr',
  'live.ca',
  'yahoo.com',
  'ymail.com',
  'rocketmail.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.es',
  'yahoo.it',
  'yahoo.ca',
  'yahoo.com.au',
  'yahoo.co.in',
  'yahoo.co.jp',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'aim.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'qq.com',
  '163.com',
  '126.com',
  'fastmail.com',
  'hey.com',
  'tutanota.com',
  'tuta.io',
  'comcast.net',
  'verizon.net',
  'att.net',
]);

export interface CreateDistrictInput {
  name: string;
  /** As typed: trimmed, lower-cased and checked here. */
  domains: string[];
  kind: string;
  adminEmail: string;
  firstName: string;
  lastName: string;
}

export interface ValidDistrict {
  name: string;
  domains: string[];
  kind: DistrictKind;
  adminEmail: string;
  firstName: string;
  lastName: string;
}

export interface CreatedDistrict {
  tenantId: string;
  name: string;
  kind: DistrictKind;
  domains: string[];
  admin: UserRecord;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^[a-z]{2,63}$/;
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A domain as stored (lower-case), or a refusal saying what is wrong with it. */
export function checkDomain(typed: string): string {
  const domain = typed.trim().toLowerCase();
  const refuse = (why: string) => new CreateDistrictRefusedError('--domain', `"${typed.trim()}" ${why}`);
  if (!domain) throw new CreateDistrictRefusedError('--domain', 'must not be empty');
  if (domain.includes('@')) throw refuse('is not a domain: give it without @ (e.g. springfield.k12.us)');
  const labels = domain.split('.');
  if (
    domain.length > 253 ||
    labels.length < 2 ||
    !labels.every((label) => LABEL.test(label)) ||
    !TOP_LEVEL.test(labels[labels.length - 1]!)
  ) {
    throw refuse('is not a host name with a dot (e.g. springfield.k12.us)');
  }
  if (PUBLIC_MAIL_DOMAINS.has(domain)) {
    throw refuse(
      "is a public mail provider: anyone can have an address there, so it cannot stand for a district. Give the district's own domain.",
    );
  }
  return domain;
}

function checkText(option: string, typed: string, max: number): string {
  const text = typed.trim();
  if (!text) throw new CreateDistrictRefusedError(option, 'is required');
  if (text.length > max) throw new CreateDistrictRefusedError(option, `must be at most ${max} characters`);
  if (CONTROL.test(text)) throw new CreateDistrictRefusedError(option, 'must not contain control characters');
  return text;
}

/** Checks what needs no database; throws CreateDistrictRefusedError naming the option. */
export function validateDistrict(input: CreateDistrictInput): ValidDistrict {
  const name = checkText('--name', input.name, DISTRICT_NAME_MAX);
  if (!(DISTRICT_KINDS as readonly string[]).includes(input.kind)) {
    throw new CreateDistrictRefusedError('--kind', `must be district or school (got "${input.kind}")`);
  }
  if (input.domains.length === 0) throw new CreateDistrictRefusedError('--domain', 'at least one is required');
  const domains = [...new Set(input.domains.map(checkDomain))];
  const typedEmail = input.adminEmail.trim();
  if (!typedEmail) throw new CreateDistrictRefusedError('--admin', 'is required');
  if (typedEmail.length > 254 || !EMAIL.test(typedEmail)) {
    throw new CreateDistrictRefusedError('--admin', `"${typedEmail}" is not an email address`);
  }
  const adminEmail = normalizeEmail(typedEmail);
  if (!domains.includes(emailDomain(adminEmail))) {
    throw new CreateDistrictRefusedError(
      '--admin',
      `${adminEmail} is not at one of the district's domains (${domains.join(', ')}): the admin's address must be the district's own.`,
    );
  }
  return {
    name,
    domains,
    kind: input.kind as DistrictKind,
    adminEmail,
    firstName: checkText('--first-name', input.firstName, PERSON_NAME_MAX),
    lastName: checkText('--last-name', input.lastName, PERSON_NAME_MAX),
  };
}

/**
 * Districts and schools owning any of `domains` (the new tenant aside), read after taking the lock
 * every creation takes: of two runs claiming one domain at once, the second sees the first's
 * tenant once it commits, and refuses.
 */
async function claimedDomains(tx: Tx, domains: string[], newTenantId: string): Promise<string[]> {
  await tx.$queryRaw`select 1 as locked from (select pg_advisory_xact_lock(hashtext('identity:tenant-domains'))) as l`;
  const owners = await tx.tenant.findMany({
    where: { kind: { in: [...DISTRICT_KINDS] }, id: { not: newTenantId }, emailDomains: { hasSome: domains } },
    select: { name: true, emailDomains: true },
  });
  return owners.flatMap((owner) =>
    owner.emailDomains.filter((d) => domains.includes(d)).map((d) => `${d} (owned by ${owner.name})`),
  );
}

class DomainTakenError extends Error {
  constructor(readonly claims: string[]) {
    super('domain taken');
  }
}

export async function createDistrict(
  deps: { users: UsersRepository; events: UserEventWriter; now?: () => Date },
  input: CreateDistrictInput,
): Promise<CreatedDistrict> {
  const valid = validateDistrict(input);
  const emailTaken = () =>
    new CreateDistrictRefusedError(
      '--admin',
      `${valid.adminEmail} already has an account: an account does not move into a new district. Give another address, or create the district with another admin and invite this one later.`,
    );
  if (await deps.users.findByEmail(valid.adminEmail)) throw emailTaken();
  try {
    const admin = await deps.users.create(
      {
        id: randomUUID(),
        email: valid.adminEmail,
        firstName: valid.firstName,
        lastName: valid.lastName,
        role: 'admin',
        // The operator vouches for the address (as the demo seed does for its own): a provider
        // sign-in may then link to this account, and a reset link proves it again anyway.
        emailVerifiedAt: deps.now?.() ?? new Date(),
        newTenant: { name: valid.name, kind: valid.kind, emailDomains: valid.domains },
      },
      async (tx, user) => {
        const claims = await claimedDomains(tx, valid.domains, user.tenantId);
        if (claims.length > 0) throw new DomainTakenError(claims);
        await deps.events.registered(tx, user);
      },
    );
    return { tenantId: admin.tenantId, name: valid.name, kind: valid.kind, domains: valid.domains, admin };
  } catch (err) {
    if (err instanceof DomainTakenError) {
      throw new CreateDistrictRefusedError(
        '--domain',
        `already a domain of a district or school: ${err.claims.join(', ')}. Each domain belongs to one district.`,
      );
    }
    // The address got an account between the check and the insert.
    if (err instanceof DuplicateEmailError) throw emailTaken();
    throw err;
  }
}
