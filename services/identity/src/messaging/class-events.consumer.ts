// The identity service's subscription to checkpoint.class.v1, for one fact: a class's owner asked
// for a co-teacher by an address no teacher account of the class's tenant has (CoTeacherInvited,
// issue 30 item 8). Identity holds the district's email domains and its accounts, so it decides:
// the address at one of the district's (or school's) domains, without an account, asked by a
// teacher of the tenant, gets the district's invitation to join as a teacher (the mail says which
// class; the class service makes the account a co-teacher once its UserRegistered arrives); an
// invitation of the district to that address still open is not sent twice. Anything else answers
// CoTeacherInvitationRefused, one reason for all (the owner learns nothing of accounts elsewhere).
import { create, CoTeacherInvitationRefusedSchema, enqueueEvent, inboxConsumer } from '@checkpoint/events';
import type { CoTeacherInvited, SubscribeOptions } from '@checkpoint/events';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import type { Db, Tx } from '../data-access/prisma.ts';
import { issueInvitation, type EmailLinkDeps } from '../domain/email-links.use-case.ts';
import { normalizeEmail } from '../domain/user.ts';
import { loginClassHandlers } from './login-classes.consumer.ts';

export const CLASS_TOPIC = 'checkpoint.class.v1';
export const IDENTITY_CLASSES_GROUP = 'identity-classes';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CoTeacherInvitationDeps {
  links: EmailLinkDeps;
  /** This service's name, the events' source. */
  source: string;
  now?: () => Date;
}

/** Whether identity mails the invitation: the tenant's, at its domains, nobody's yet, asked by its teacher. */
async function invitable(tx: Tx, m: CoTeacherInvited, email: string, now: Date) {
  const tenant = await tx.tenant.findUnique({
    where: { id: m.tenantId },
    select: { name: true, kind: true, emailDomains: true },
  });
  if (!tenant || (tenant.kind !== 'district' && tenant.kind !== 'school')) return undefined;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (!tenant.emailDomains.map((d) => d.toLowerCase()).includes(domain)) return undefined;
  if (await tx.user.findFirst({ where: { email }, select: { id: true } })) return undefined;
  const asker = await tx.user.findFirst({
    where: { id: m.invitedBy, tenantId: m.tenantId, disabledAt: null, role: { in: ['teacher', 'admin'] } },
    select: { id: true },
  });
  if (!asker) return undefined;
  const open = await tx.emailToken.count({
    where: { purpose: 'invite', tenantId: m.tenantId, email, usedAt: null, expiresAt: { gt: now } },
  });
  return { tenantName: tenant.name, alreadyInvited: open > 0 };
}

export async function answerCoTeacherInvitation(
  deps: CoTeacherInvitationDeps,
  tx: Tx,
  m: CoTeacherInvited,
): Promise<void> {
  // A message without valid ids has nobody to answer: acknowledged, nothing written.
  if (![m.invitationId, m.classId, m.tenantId, m.invitedBy].every((id) => UUID.test(id))) return;
  const email = normalizeEmail(m.email);
  const found = email.includes('@') ? await invitable(tx, m, email, (deps.now ?? (() => new Date()))()) : undefined;
  if (!found) {
    await enqueueEvent(tx, {
      source: deps.source,
      schema: CoTeacherInvitationRefusedSchema,
      message: create(CoTeacherInvitationRefusedSchema, {
        invitationId: m.invitationId,
        classId: m.classId,
        tenantId: m.tenantId,
        occurredAt: timestampNow(),
      }),
      key: m.classId,
      tenantId: m.tenantId,
    });
    return;
  }
  if (found.alreadyInvited) return;
  await issueInvitation(
    deps.links,
    {
      tenantId: m.tenantId,
      email,
      role: 'teacher',
      invitedBy: m.invitedBy,
      tenantName: found.tenantName,
      coTeaching: { classId: m.classId, className: m.className.slice(0, 200) },
    },
    tx,
  );
}

export function coTeacherInvitationsSubscription(db: Db, deps: CoTeacherInvitationDeps): SubscribeOptions {
  return {
    groupId: IDENTITY_CLASSES_GROUP,
    topics: [CLASS_TOPIC],
    ...inboxConsumer<Tx>(db, IDENTITY_CLASSES_GROUP, {
      // The classes of class-code sign-in and login cards (login-classes.consumer.ts).
      ...loginClassHandlers,
      'checkpoint.class.v1.CoTeacherInvited': (tx, m) => answerCoTeacherInvitation(deps, tx, m),
    }),
  };
}
