// Co-teachers invited by an address no teacher account of the class's tenant has yet (migration
// 009, issue 30 item 8): kept by address while identity mails the district's invitation
// (CoTeacherInvited), made co-teachers when that account's UserRegistered arrives, marked refused
// when identity answers CoTeacherInvitationRefused. Each change writes its event to the outbox in
// the same transaction.
import { uuidv7 } from '@checkpoint/service-kit';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { CoTeacherInvitedSchema, create, enqueueEvent } from '@checkpoint/events';
import { classEventsPublisher, SOURCE } from '../messaging/class-events.publisher.ts';
import type { Tx } from './prisma.ts';

export interface CoTeacherInvitationRow {
  id: string;
  email: string;
  refused: boolean;
}

/** The class's invitations, oldest first. */
export async function invitationsOf(tx: Pick<Tx, 'coTeacherInvitation'>, classId: string) {
  return tx.coTeacherInvitation.findMany({
    where: { classId },
    select: { id: true, email: true, refused: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** Records the invitation and its CoTeacherInvited, in `tx` (the caller holds the class's row lock). */
export async function insertInvitation(
  tx: Tx,
  cls: { id: string; tenantId: string; name: string },
  email: string,
  invitedBy: string,
): Promise<CoTeacherInvitationRow> {
  const id = uuidv7();
  const row = await tx.coTeacherInvitation.create({
    data: { id, classId: cls.id, tenantId: cls.tenantId, email, invitedBy },
    select: { id: true, email: true, refused: true },
  });
  await enqueueEvent(tx, {
    source: SOURCE,
    schema: CoTeacherInvitedSchema,
    message: create(CoTeacherInvitedSchema, {
      invitationId: id,
      classId: cls.id,
      tenantId: cls.tenantId,
      email,
      invitedBy,
      className: cls.name,
      occurredAt: timestampNow(),
    }),
    key: cls.id,
    tenantId: cls.tenantId,
  });
  return row;
}

/** Identity did not mail it: the owner sees it refused (a redelivery changes nothing). */
export async function refuseInvitation(tx: Tx, invitationId: string, classId: string): Promise<void> {
  await tx.coTeacherInvitation.updateMany({ where: { id: invitationId, classId }, data: { refused: true } });
}

/**
 * A teacher account of the tenant now has the address: each class that invited it takes them as a
 * co-teacher (under its row lock, with its ClassUpdated) and forgets the invitation. A class they
 * already teach just forgets it. Refused invitations stay as they are (the owner withdraws them).
 */
export async function applyInvitations(
  tx: Tx,
  person: { userId: string; tenantId: string; email: string; role: string },
): Promise<void> {
  if (person.role !== 'teacher' && person.role !== 'admin') return;
  const email = person.email.trim().toLowerCase();
  const invitations = await tx.coTeacherInvitation.findMany({
    where: { tenantId: person.tenantId, email, refused: false },
    select: { id: true, classId: true },
    orderBy: { classId: 'asc' },
  });
  const events = classEventsPublisher();
  for (const inv of invitations) {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`
      select id from classes where id = ${inv.classId}::uuid for update`;
    await tx.coTeacherInvitation.delete({ where: { id: inv.id } });
    if (!locked) continue;
    const cls = await tx.class.findUniqueOrThrow({ where: { id: inv.classId } });
    if (cls.teacherId === person.userId || cls.coTeacherIds.includes(person.userId)) continue;
    const row = await tx.class.update({
      where: { id: cls.id },
      data: { coTeacherIds: [...cls.coTeacherIds, person.userId], updatedAt: new Date() },
    });
    await events.classUpdated(tx, row);
  }
}
