// signUpWithPassword: every password sign-up gets a mail, never an account, and the same answer.
import { describe, expect, it } from 'vitest';
import type { MembershipRepository } from '../data-access/membership.repository.ts';
import type { UsersRepository } from '../data-access/users.repository.ts';
import { signUpWithPassword, type MembershipDeps } from './membership.use-case.ts';
import { PasswordSignInDisabledError } from './sso.use-case.ts';
import type { Limiter } from './ports.ts';
import type { UserRecord } from './user.ts';

const DISTRICT = { id: 'd1', name: 'Springfield Schools', kind: 'district' as const, passwordSignIn: true };
const INPUT = {
  firstName: ' Ada ',
  lastName: 'Lovelace',
  email: 'Ada@Springfield.K12.us',
  password: 'seventh heaven 7',
  role: 'teacher' as const,
};

function fakes(options: { district?: typeof DISTRICT; existing?: boolean; limited?: boolean } = {}) {
  const calls = { links: [] as unknown[], already: [] as unknown[], created: 0 };
  const users = {
    findByEmail: async () => (options.existing ? ({ id: 'u1' } as UserRecord) : undefined),
    create: async () => {
      calls.created++;
      return { id: 'u2', tenantId: 'solo', tenantKind: 'individual' } as UserRecord;
    },
  } as unknown as UsersRepository;
  const limiter: Limiter = {
    consume: async () => (options.limited ? { allowed: false, retryAfterSeconds: 30 } : { allowed: true }),
    refund: async () => {},
  };
  const deps: MembershipDeps = {
    users,
    events: { registered: async () => {}, updated: async () => {} },
    membership: { findDistrictByDomain: async () => options.district } as unknown as MembershipRepository,
    mail: {
      sendSignupLink: async (input) => void calls.links.push(input),
      sendAlreadyRegistered: async (input) => void calls.already.push(input),
    },
    mailLimit: limiter,
    assertPasswordSignInAllowed: async () => {
      if (options.district && !options.district.passwordSignIn)
        throw new PasswordSignInDisabledError(options.district.name, options.district.name);
    },
  };
  return { deps, calls };
}

describe('signUpWithPassword', () => {
  it('when the domain is a district’s, then no account is made and the sign-up link carries the hash, never the password', async () => {
    const { deps, calls } = fakes({ district: DISTRICT });
    const outcome = await signUpWithPassword(deps, INPUT);
    expect(outcome).toEqual({ email: 'ada@springfield.k12.us' });
    expect(calls.created).toBe(0);
    expect(calls.links).toEqual([
      {
        email: 'ada@springfield.k12.us',
        firstName: 'Ada',
        lastName: 'Lovelace',
        role: 'teacher',
        passwordHash: expect.stringMatching(/^\$argon2id\$/),
        tenantId: 'd1',
      },
    ]);
    expect(JSON.stringify(calls.links)).not.toContain('seventh heaven 7');
  });

  it('when the address has an account, then the same answer and only the "already registered" mail', async () => {
    const { deps, calls } = fakes({ district: DISTRICT, existing: true });
    const outcome = await signUpWithPassword(deps, INPUT);
    expect(outcome).toEqual({ email: 'ada@springfield.k12.us' });
    expect(calls.links).toEqual([]);
    expect(calls.already).toEqual([{ email: 'ada@springfield.k12.us', districtName: 'Springfield Schools' }]);
  });

  it('when the address asked too often, then the same answer and no mail', async () => {
    const { deps, calls } = fakes({ district: DISTRICT, limited: true });
    expect(await signUpWithPassword(deps, INPUT)).toEqual({ email: 'ada@springfield.k12.us' });
    expect([calls.links, calls.already, calls.created]).toEqual([[], [], 0]);
  });

  it('when the district turned password sign-in off, then 403 password_sign_in_disabled and nothing is sent', async () => {
    const { deps, calls } = fakes({ district: { ...DISTRICT, passwordSignIn: false } });
    const error = await signUpWithPassword(deps, INPUT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PasswordSignInDisabledError);
    expect(error).toMatchObject({
      status: 403,
      code: 'password_sign_in_disabled',
      message:
        'Springfield Schools signs in with its own provider. Use “Continue with Springfield Schools” on the sign-in page.',
    });
    expect([calls.links, calls.already]).toEqual([[], []]);
  });

  it('when no district owns the domain, then no account is made and the link carries no tenant (a new individual space when opened)', async () => {
    const { deps, calls } = fakes();
    const outcome = await signUpWithPassword(deps, { ...INPUT, email: 'ada@example.com' });
    expect(outcome).toEqual({ email: 'ada@example.com' });
    expect(calls.created).toBe(0);
    expect(calls.links).toEqual([
      {
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        role: 'teacher',
        passwordHash: expect.stringMatching(/^\$argon2id\$/),
      },
    ]);
  });

  it('when no district owns the domain and the address has an account, then the same answer and a note without a district', async () => {
    const { deps, calls } = fakes({ existing: true });
    expect(await signUpWithPassword(deps, { ...INPUT, email: 'ada@example.com' })).toEqual({
      email: 'ada@example.com',
    });
    expect([calls.links, calls.created]).toEqual([[], 0]);
    expect(calls.already).toEqual([{ email: 'ada@example.com' }]);
  });

  it('when the password is refused, then the same 400 whether or not the address has an account', async () => {
    const weak = { ...INPUT, email: 'ada@example.com', password: 'password' };
    const fresh = await signUpWithPassword(fakes().deps, weak).catch((e: unknown) => e);
    const taken = await signUpWithPassword(fakes({ existing: true }).deps, weak).catch((e: unknown) => e);
    expect(fresh).toMatchObject({ status: 400 });
    expect(taken).toEqual(fresh);
  });
});
