// identity's UserRegistered/UserUpdated → the local `people` table, so that teacher and student
// names shown with classes follow renames, and the Free Trial limits know the teacher's tenant kind;
// TenantJoinPolicyChanged → the district's join policy (join by code). A teacher registered with an
// address a class invited becomes its co-teacher; CoTeacherInvitationRefused marks the invitation.
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { CoTeacherInvitationRefused, InboxHandlers, TenantJoinPolicyChanged } from '@checkpoint/events';
import { z } from 'zod';
import { applyInvitations, refuseInvitation } from '../data-access/co-teacher-invitations.repository.ts';
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

const UUID = z.uuid();

async function keep(tx: Tx, u: UserFacts): Promise<void> {
  await upsertPerson(tx, {
    userId: u.userId,
    tenantId: u.tenantId,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    role: u.role,
    tenantKind: u.tenantKind || null,
  });
  if (UUID.safeParse(u.tenantId).success && u.email) await applyInvitations(tx, u);
}

/** An answer without valid ids is skipped (acknowledged, nothing written). */
async function refused(tx: Tx, m: CoTeacherInvitationRefused): Promise<void> {
  if (!UUID.safeParse(m.invitationId).success || !UUID.safeParse(m.classId).success) return;
  await refuseInvitation(tx, m.invitationId, m.classId);
}

const joinPolicyFacts = z.object({ tenantId: z.uuid(), ownClassesOnly: z.boolean(), changedAt: z.date() });

/**
 * Keeps the tenant's policy as the event says, unless a newer one is already kept (the event is the
 * full state, so an older one arriving late changes nothing). An event without a valid tenant id
 * or time is skipped (acknowledged, nothing written).
 */
async function keepJoinPolicy(tx: Tx, m: TenantJoinPolicyChanged): Promise<void> {
  const facts = joinPolicyFacts.safeParse({
    tenantId: m.tenantId,
    ownClassesOnly: m.ownClassesOnly,
    changedAt: m.occurredAt ? timestampDate(m.occurredAt) : undefined,
  });
  if (!facts.success) return;
  const { tenantId, ownClassesOnly, changedAt } = facts.data;
  await tx.$executeRaw`
    insert into tenant_join_policies (tenant_id, own_classes_only, changed_at)
    values (${tenantId}::uuid, ${ownClassesOnly}, ${changedAt})
    on conflict (tenant_id) do update
      set own_classes_only = excluded.own_classes_only, changed_at = excluded.changed_at
      where tenant_join_policies.changed_at <= excluded.changed_at`;
}

export const userEventHandlers: InboxHandlers<Tx> = {
  'checkpoint.identity.v1.TenantJoinPolicyChanged': (tx, m) => keepJoinPolicy(tx, m),
  'checkpoint.identity.v1.UserRegistered': (tx, m) => keep(tx, m),
  'checkpoint.identity.v1.UserUpdated': (tx, m) => keep(tx, m),
  'checkpoint.identity.v1.CoTeacherInvitationRefused': (tx, m) => refused(tx, m),
};
