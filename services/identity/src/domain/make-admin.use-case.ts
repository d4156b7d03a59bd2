// Makes a user the admin of their district or school (`npm run make-admin -- <email>`): the role
// changes and UserUpdated is written to the outbox in one transaction.
import type { UsersRepository } from '../data-access/users.repository.ts';
import type { UserEventWriter } from './ports.ts';
import { normalizeEmail, type UserRecord } from './user.ts';

/** The command refuses: the message says why, for the operator who typed it. */
export class MakeAdminRefusedError extends Error {}

export interface MakeAdminOutcome {
  user: UserRecord;
  /** False when the user already was an admin (nothing written). */
  changed: boolean;
}

export async function makeAdmin(
  deps: { users: UsersRepository; events: UserEventWriter },
  typedEmail: string,
): Promise<MakeAdminOutcome> {
  const email = normalizeEmail(typedEmail);
  const user = email ? await deps.users.findByEmail(email) : undefined;
  if (!user) throw new MakeAdminRefusedError(`No user has the email "${typedEmail.trim()}".`);
  if (user.tenantKind === 'individual') {
    throw new MakeAdminRefusedError(
      `${user.email} has an individual account (their own space, not a district or school): there is no district to administer. Only a user of a district or school can be made its admin.`,
    );
  }
  // An admin sees every student's results in the district: not a right a student account gets.
  if (user.role === 'student') {
    throw new MakeAdminRefusedError(
      `${user.email} is a student account; only a teacher (staff) account can be made the admin of a district.`,
    );
  }
  if (user.disabledAt) throw new MakeAdminRefusedError(`${user.email} is disabled.`);
  if (user.role === 'admin') return { user, changed: false };
  const updated = await deps.users.updateRole(user.id, 'admin', (tx, changed) => deps.events.updated(tx, changed));
  if (!updated) throw new MakeAdminRefusedError(`No user has the email "${typedEmail.trim()}".`);
  return { user: updated, changed: true };
}
