// identity's UserRegistered/UserUpdated → the local `people` table, so that teacher and student
// names shown with classes follow renames, and the Free Trial limits know the teacher's tenant kind.
import type { InboxHandlers } from '@checkpoint/events';
import { upsertPerson } from '../data-access/people.repository.ts';
import type { Tx } from '../data-access/prisma.ts';

export const IDENTITY_TOPIC = 'checkpoint.identity.v1';

type UserFacts = {
  userId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  /** Empty from a publisher older than the field. */
  tenantKind: string;
};

const keep = (tx: Tx, u: UserFacts) =>
  upsertPerson(tx, {
    userId: u.userId,
    tenantId: u.tenantId,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    role: u.role,
    tenantKind: u.tenantKind || null,
  });

export const userEventHandlers: InboxHandlers<Tx> = {
  'checkpoint.identity.v1.UserRegistered': (tx, m) => keep(tx, m),
  'checkpoint.identity.v1.UserUpdated': (tx, m) => keep(tx, m),
};
