// The consumer's side of the notification digest (docs/architecture.md, "Notifications"): the
// switches each user set, and the facts their next digest tells, noted in the inbox transaction
// of the event (so each fact is noted once, however often the event is delivered). Facts older
// than a day are not noted: a replay of the topics into an empty schema mails nobody about the past.
import type { Tx } from './db.ts';

/** A fact older than this when it arrives is not worth a mail. */
export const NOTE_WITHIN = "interval '1 day'";

export interface NotificationSwitches {
  emailNotifications: boolean;
  assessmentReminders: boolean;
  studentSubmissions: boolean;
}

/** The switches as published (undefined: an older publisher, the defaults apply) and whether the account was removed. */
export async function keepNotificationSettings(
  tx: Tx,
  userId: string,
  switches: NotificationSwitches | undefined,
  disabled: boolean,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `insert into notification_settings (user_id, email_notifications, assessment_reminders, student_submissions, disabled)
     values ($1, $2, $3, $4, $5)
     on conflict (user_id) do update set email_notifications = excluded.email_notifications,
       assessment_reminders = excluded.assessment_reminders, student_submissions = excluded.student_submissions,
       disabled = excluded.disabled`,
    userId,
    switches?.emailNotifications ?? null,
    switches?.assessmentReminders ?? null,
    switches?.studentSubmissions ?? null,
    disabled,
  );
}

/** Deletes every notification row naming the person (theirs, or about them); returns how many. */
export async function forgetNotifications(tx: Tx, userId: string): Promise<number> {
  return (
    (await tx.$executeRawUnsafe('delete from digest_items where user_id = $1 or subject_id = $1', userId)) +
    (await tx.$executeRawUnsafe('delete from notification_settings where user_id = $1', userId)) +
    (await tx.$executeRawUnsafe('delete from reminders_sent where student_id = $1', userId))
  );
}

/** A submission, for the teachers of its class, owner and co-teachers (if the result was kept: not of a deleted student). */
export async function noteSubmission(
  tx: Tx,
  r: { resultId: string; classId: string; studentId: string; submittedAt: Date },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `insert into digest_items (user_id, kind, ref_id, subject_id, occurred_at)
     select t.id, 'submission', $1, $3, $4
       from classes c cross join lateral unnest(array[c.teacher_id] || c.co_teacher_ids) as t(id)
      where c.class_id = $2 and $4::timestamptz > now() - ${NOTE_WITHIN}
        and exists (select 1 from results where result_id = $1)
     on conflict do nothing`,
    r.resultId,
    r.classId,
    r.studentId,
    r.submittedAt,
  );
}

/** A student joined a class, for its teachers (owner and co-teachers). */
export async function noteJoined(tx: Tx, m: { classId: string; studentId: string; at: Date }): Promise<void> {
  await tx.$executeRawUnsafe(
    `insert into digest_items (user_id, kind, ref_id, subject_id, occurred_at)
     select t.id, 'joined', $1, $2, $3
       from classes c cross join lateral unnest(array[c.teacher_id] || c.co_teacher_ids) as t(id)
      where c.class_id = $1 and $3::timestamptz > now() - ${NOTE_WITHIN}
        and exists (select 1 from memberships m where m.class_id = $1 and m.student_id = $2)
     on conflict do nothing`,
    m.classId,
    m.studentId,
    m.at,
  );
}

/**
 * An assessment was assigned to a class (wholly, or to the students chosen there so far): kept as
 * one of its classes, and noted for each student it now reaches there.
 */
export async function noteAssigned(
  tx: Tx,
  a: { assessmentId: string; classId: string; tenantId: string; onlyChosen: boolean; studentIds: string[]; at: Date },
): Promise<void> {
  await tx.$executeRawUnsafe(
    'update assessments set assigned_at = coalesce(assigned_at, $2) where assessment_id = $1',
    a.assessmentId,
    a.at,
  );
  await tx.$executeRawUnsafe(
    `insert into assessment_classes (assessment_id, class_id, tenant_id, only_chosen, student_ids, assigned_at)
     values ($1, $2, $3, $4, $5::uuid[], $6)
     on conflict (assessment_id, class_id) do update
        set only_chosen = excluded.only_chosen, student_ids = excluded.student_ids`,
    a.assessmentId,
    a.classId,
    a.tenantId,
    a.onlyChosen,
    a.studentIds,
    a.at,
  );
  await tx.$executeRawUnsafe(
    `insert into digest_items (user_id, kind, ref_id, subject_id, occurred_at)
     select m.student_id, 'assigned', $1, m.student_id, $3 from memberships m
      where m.class_id = $2 and $3::timestamptz > now() - ${NOTE_WITHIN}
        and (not $4 or m.student_id = any($5::uuid[]))
     on conflict do nothing`,
    a.assessmentId,
    a.classId,
    a.at,
    a.onlyChosen,
    a.studentIds,
  );
}

/** The assessment's due date (null: none). */
export async function setAssessmentDue(tx: Tx, assessmentId: string, dueAt: Date | null): Promise<void> {
  await tx.$executeRawUnsafe('update assessments set due_at = $2 where assessment_id = $1', assessmentId, dueAt);
}
