// Wiring of password sign-up and district membership (domain/membership.use-case.ts): the
// repository, and the mails of a sign-up through email-links.use-case.ts (its deps come from email.ts).
import { membershipRepository } from './data-access/membership.repository.ts';
import type { Db } from './data-access/prisma.ts';
import type { AccountDeps } from './domain/accounts.use-case.ts';
import { signUpMail } from './domain/signup-mail.ts';
import type { EmailLinkDeps } from './domain/email-links.use-case.ts';
import type { MembershipDeps } from './domain/membership.use-case.ts';
import type { Limiter } from './domain/ports.ts';

export function membershipDeps(input: {
  db: Db;
  accounts: AccountDeps;
  emailLinks: EmailLinkDeps;
  /** Sign-up mails per address per minute. */
  mailLimit: Limiter;
  assertPasswordSignInAllowed: (tenantId: string) => Promise<void>;
}): MembershipDeps {
  return {
    ...input.accounts,
    membership: membershipRepository(input.db),
    mail: signUpMail(input.emailLinks),
    mailLimit: input.mailLimit,
    assertPasswordSignInAllowed: input.assertPasswordSignInAllowed,
  };
}
