// The digest job's reads and writes (docs/architecture.md, "Notifications"). One user's digest is
// one transaction: their settings row is locked (SKIP LOCKED: another replica on the same user
// skips it), their noted facts are taken, the mail is queued and last_digest_at is set, all
// committed together, so a digest is sent once or not at all.
import { enqueueMail } from '@checkpoint/mail';
import type pg from 'pg';
import {
  composeDigest,
  isEmpty,
  switchesOf,
  type AssignmentLine,
  type DigestContent,
  type JoinedLine,
  type SubmissionLine,
} from '../domain/digest.ts';
import { transactions, type Tx } from './db.ts';

/** A pass over all users holds this advisory lock: replicas take turns. */
const DIGEST_LOCK = 7232;

type SettingsRow = {
  user_id: string;
  email_notifications: boolean | null;
  assessment_reminders: boolean | null;
  student_submissions: boolean | null;
  disabled: boolean;
  last_digest_at: Date | null;
};

type TakenItem = { kind: string; ref_id: string; subject_id: string };

export interface DigestPassResult {
  /** Mails queued. */
  sent: number;
  /** Users looked at. */
  users: number;
  /** False when another replica was running a pass. */
  ran: boolean;
}

/** `ac` (assessment_classes) gives its assessment to the member `m`: wholly or as one chosen (migrations/016). */
const GIVEN = 'ac.class_id = m.class_id and (not ac.only_chosen or m.student_id = any(ac.student_ids))';

/** Users who may get something: noted facts, or (students) an assignment due within a day. */
async function candidates(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ user_id: string }>(
    `select distinct user_id from digest_items
     union
     select m.student_id from memberships m
       join assessment_classes ac on ${GIVEN}
       join assessments a on a.assessment_id = ac.assessment_id
       join notification_settings s on s.user_id = m.student_id and s.assessment_reminders
      where a.due_at > now() and a.due_at <= now() + interval '24 hours' and a.assigned_at is not null
        and a.is_active
        and not exists (select 1 from results r where r.assessment_id = a.assessment_id and r.student_id = m.student_id)
        and not exists (select 1 from reminders_sent x where x.student_id = m.student_id and x.assessment_id = a.assessment_id)`,
  );
  return rows.map((r) => r.user_id);
}

const fullName = (first: string, last: string) => `${first} ${last}`.trim();

async function submissions(tx: Tx, items: TakenItem[]): Promise<SubmissionLine[]> {
  const ids = items.filter((i) => i.kind === 'submission').map((i) => i.ref_id);
  if (!ids.length) return [];
  const rows = await tx.$queryRawUnsafe<
    {
      first_name: string;
      last_name: string;
      assessment_id: string;
      title: string;
      class_name: string;
      percentage: number;
      level: string;
    }[]
  >(
    `select p.first_name, p.last_name, a.assessment_id, a.title, c.name as class_name, r.percentage, r.level
       from results r
       join people p on p.user_id = r.student_id
       join assessments a on a.assessment_id = r.assessment_id
       join classes c on c.class_id = r.class_id
      where r.result_id = any($1::uuid[])
      order by c.name, a.title, p.last_name, p.first_name`,
    ids,
  );
  return rows.map((r) => ({
    studentName: fullName(r.first_name, r.last_name),
    assessmentId: r.assessment_id,
    assessmentTitle: r.title,
    className: r.class_name,
    percentage: r.percentage,
    level: r.level,
  }));
}

async function joined(tx: Tx, items: TakenItem[]): Promise<JoinedLine[]> {
  const pairs = items.filter((i) => i.kind === 'joined');
  if (!pairs.length) return [];
  const rows = await tx.$queryRawUnsafe<{ first_name: string; last_name: string; class_id: string; name: string }[]>(
    `select p.first_name, p.last_name, c.class_id, c.name
       from unnest($1::uuid[], $2::uuid[]) as j(class_id, student_id)
       join memberships m on m.class_id = j.class_id and m.student_id = j.student_id
       join people p on p.user_id = j.student_id
       join classes c on c.class_id = j.class_id
      order by c.name, p.last_name, p.first_name`,
    pairs.map((i) => i.ref_id),
    pairs.map((i) => i.subject_id),
  );
  return rows.map((r) => ({
    studentName: fullName(r.first_name, r.last_name),
    classId: r.class_id,
    className: r.name,
  }));
}

type AssignmentRow = { assessment_id: string; title: string; name: string; due_at: Date | null };
const toAssignment = (r: AssignmentRow): AssignmentLine => ({
  assessmentId: r.assessment_id,
  assessmentTitle: r.title,
  className: r.name,
  dueAt: r.due_at,
});

async function assigned(tx: Tx, userId: string, items: TakenItem[]): Promise<AssignmentLine[]> {
  const ids = items.filter((i) => i.kind === 'assigned').map((i) => i.ref_id);
  if (!ids.length) return [];
  const rows = await tx.$queryRawUnsafe<AssignmentRow[]>(
    `select * from (
       select distinct on (a.assessment_id) a.assessment_id, a.title, c.name, a.due_at
         from assessments a
         join assessment_classes ac on ac.assessment_id = a.assessment_id
         join memberships m on m.student_id = $2 and ${GIVEN}
         join classes c on c.class_id = ac.class_id and not c.archived
        where a.assessment_id = any($1::uuid[]) and a.is_active
        order by a.assessment_id, c.name) x
      order by x.due_at nulls last, x.title`,
    ids,
    userId,
  );
  return rows.map(toAssignment);
}

/** Due within 24 h, assigned, not submitted, not reminded before: each marked as reminded. */
async function reminders(tx: Tx, userId: string): Promise<AssignmentLine[]> {
  const rows = await tx.$queryRawUnsafe<AssignmentRow[]>(
    `with due as (
       select distinct on (a.assessment_id) a.assessment_id, a.title, c.name, a.due_at
         from memberships m
         join assessment_classes ac on ${GIVEN}
         join assessments a on a.assessment_id = ac.assessment_id
         join classes c on c.class_id = ac.class_id and not c.archived
        where m.student_id = $1 and a.assigned_at is not null and a.is_active
          and a.due_at > now() and a.due_at <= now() + interval '24 hours'
          and not exists (select 1 from results r where r.assessment_id = a.assessment_id and r.student_id = $1)
        order by a.assessment_id, c.name
     ), marked as (
       insert into reminders_sent (student_id, assessment_id)
       select $1, assessment_id from due on conflict do nothing
       returning assessment_id
     )
     select due.* from due join marked using (assessment_id) order by due.due_at, due.title`,
    userId,
  );
  return rows.map(toAssignment);
}

/**
 * One user's digest. Their noted facts are taken whatever happens (a switch that is off drops
 * them: turning it on later does not mail the past); a mail is queued when anything is left.
 */
async function digestOne(tx: Tx, userId: string, windowMs: number, baseUrl: string): Promise<boolean> {
  await tx.$executeRawUnsafe(
    'insert into notification_settings (user_id) values ($1) on conflict (user_id) do nothing',
    userId,
  );
  const [settings] = await tx.$queryRawUnsafe<SettingsRow[]>(
    'select * from notification_settings where user_id = $1 for update skip locked',
    userId,
  );
  if (!settings) return false; // another replica has this user right now
  // At most one digest per period (90 % of it, so that a slightly early timer does not skip one).
  if (settings.last_digest_at && Date.now() - settings.last_digest_at.getTime() < windowMs * 0.9) return false;
  const [person] = await tx.$queryRawUnsafe<{ first_name: string; email: string; role: string }[]>(
    'select first_name, email, role from people where user_id = $1',
    userId,
  );
  const items = await tx.$queryRawUnsafe<TakenItem[]>(
    'delete from digest_items where user_id = $1 returning kind, ref_id, subject_id',
    userId,
  );
  if (!person || settings.disabled || !person.email) return false;
  const on = switchesOf(settings);
  const staff = person.role === 'teacher' || person.role === 'admin';
  const content: DigestContent = {
    firstName: person.first_name,
    submissions: staff && on.studentSubmissions ? await submissions(tx, items) : [],
    joined: staff && on.emailNotifications ? await joined(tx, items) : [],
    assigned: !staff && on.emailNotifications ? await assigned(tx, userId, items) : [],
    reminders: !staff && on.assessmentReminders ? await reminders(tx, userId) : [],
  };
  if (isEmpty(content)) return false;
  const mail = composeDigest(content, baseUrl);
  await enqueueMail(tx, { to: person.email, ...mail });
  await tx.$executeRawUnsafe('update notification_settings set last_digest_at = now() where user_id = $1', userId);
  return true;
}

/** One pass over every user who may get a digest; skipped while another replica runs one. */
export async function runDigestPass(
  pool: pg.Pool,
  options: { windowMs: number; baseUrl: string },
): Promise<DigestPassResult> {
  const lockClient = await pool.connect();
  let locked = false;
  try {
    const { rows } = await lockClient.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [DIGEST_LOCK]);
    locked = rows[0]?.ok === true;
    if (!locked) return { sent: 0, users: 0, ran: false };
    const users = await candidates(pool);
    const tx = transactions(pool);
    let sent = 0;
    for (const userId of users) {
      if (await tx.$transaction((t) => digestOne(t, userId, options.windowMs, options.baseUrl))) sent += 1;
    }
    return { sent, users: users.length, ran: true };
  } finally {
    if (locked) await lockClient.query('select pg_advisory_unlock($1)', [DIGEST_LOCK]).catch(() => {});
    lockClient.release();
  }
}
