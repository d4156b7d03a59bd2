// Writes of the read models, each run inside a consumer's inbox transaction. Every statement is an
// upsert or a delete keyed by the ids the event carries, so an event applied twice (or a topic
// replayed into an empty schema) leaves the same rows. The running figures (tenant_figures,
// student_figures) move only when a result row really appears, changes level or goes.
import type { Level } from '../domain/events.ts';
import { studentBand } from '../domain/figures.ts';
import type { Tx } from './db.ts';
import { forgetEvidence, lockMastery, recordEvidence, rescoreResult } from './mastery.writer.ts';
import { forgetNotifications } from './notifications.writer.ts';
import { enqueueMail } from '@checkpoint/mail';
import { composeCoTeacherMail } from '../domain/co-teacher-mail.ts';

/**
 * Writes about one user (a result, a membership, practice) take this lock shared and a user's
 * deletion takes it exclusively: they arrive on different topics and may run at the same time in
 * different consumers, and without it a result committed alongside the deletion would survive it.
 */
const USER_LOCK_SPACE = 7231;
const lockUser = (tx: Tx, userId: string, mode: 'shared' | 'exclusive') =>
  tx.$queryRawUnsafe(
    `select ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}($1, hashtext($2))`,
    USER_LOCK_SPACE,
    userId,
  );

/** Channel of the live view: one notice per result change, sent by Postgres at commit. */
export const LIVE_CHANNEL = 'analytics_results';

export interface PersonRow {
  userId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  /** district | school | individual; empty from a publisher older than the field (a known kind stays). */
  tenantKind?: string;
  /** Removed by the district's admin (identity's UserUpdated.disabled): no longer counted. */
  disabled?: boolean;
  at: Date;
}

export interface ClassRow {
  classId: string;
  tenantId: string;
  teacherId: string;
  /** Its co-teachers (empty from publishers older than the field). */
  coTeacherIds: string[];
  name: string;
  subject: string;
  period: string;
  at: Date;
}

export interface AssessmentRow {
  assessmentId: string;
  tenantId: string;
  classId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  isActive?: boolean;
  at: Date;
}

export interface QuestionRow {
  questionId: string;
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  points: number;
}

export interface ResultRow {
  resultId: string;
  tenantId: string;
  classId: string;
  assessmentId: string;
  studentId: string;
  earnedPoints: number;
  totalPoints: number;
  percentage: number;
  level: Level;
  submittedAt: Date;
  answers: {
    questionId: string;
    answer: string;
    correct: boolean;
    pending?: boolean;
    /** The options the student was shown when fewer than all (reduced answer choices); empty or absent: all. */
    shownOptions?: readonly string[];
  }[];
  /** Which of the student's attempts it is (from 1; 0 or absent: before retakes, the first). */
  attempt?: number;
}

/** A result's whole state after a teacher's regrade (ResultRegraded). */
export interface RegradedRow {
  resultId: string;
  earnedPoints: number;
  totalPoints: number;
  percentage: number;
  /** The result's level now (practice may hold it at `at`). */
  level: Level;
  /** The level of the score alone. */
  scoreLevel: Level;
  answers: {
    questionId: string;
    answer: string;
    correct: boolean;
    pending: boolean;
    earnedPoints: number;
    shownOptions?: readonly string[];
  }[];
}

/**
 * Each answer's shown options for an unnest: one JSON array per answer (Postgres arrays cannot be
 * ragged); SHOWN_OPTIONS turns an empty one (all options shown) into null.
 */
const shownJson = (answers: readonly { shownOptions?: readonly string[] }[]) =>
  answers.map((a) => JSON.stringify(a.shownOptions ?? []));
const SHOWN_OPTIONS = (s: string) =>
  `case when jsonb_array_length(${s}) = 0 then null else array(select jsonb_array_elements_text(${s})) end`;

export async function upsertPerson(tx: Tx, p: PersonRow): Promise<void> {
  // `old` is the row before this statement (a user's events come one at a time, in key order).
  const disabled = p.disabled ?? false;
  const [was] = await tx.$queryRawUnsafe<{ tenant_id: string | null; role: string | null; disabled: boolean | null }[]>(
    `with old as (select tenant_id, role, disabled from people where user_id = $1)
     insert into people (user_id, tenant_id, first_name, last_name, email, role, registered_at, disabled, tenant_kind)
     values ($1, $2, $3, $4, $5, $6, $7, $8, nullif($9, ''))
     on conflict (user_id) do update set tenant_id = excluded.tenant_id, first_name = excluded.first_name,
       last_name = excluded.last_name, email = excluded.email, role = excluded.role, disabled = excluded.disabled,
       tenant_kind = coalesce(excluded.tenant_kind, people.tenant_kind)
     returning (select tenant_id from old), (select role from old), (select disabled from old)`,
    p.userId,
    p.tenantId,
    p.firstName,
    p.lastName,
    p.email,
    p.role,
    p.at,
    disabled,
    p.tenantKind ?? '',
  );
  const before: Counted =
    was?.tenant_id && was.role && !was.disabled ? { tenantId: was.tenant_id, role: was.role } : undefined;
  await countPerson(tx, before, disabled ? undefined : p);
}

type Counted = { tenantId: string; role: string } | undefined;

/**
 * Moves one person in the tenants' people counts from (tenant, role) `from` to `to` (undefined: not
 * counted, e.g. a removed account). Teachers are the role teacher only, as the district's Users page
 * counts them; admins count among the users.
 */
async function countPerson(tx: Tx, from: Counted, to: Counted): Promise<void> {
  const deltas = new Map<string, [number, number, number]>();
  const count = (p: Counted, sign: number) => {
    if (!p) return;
    const d = deltas.get(p.tenantId) ?? [0, 0, 0];
    d[0] += sign;
    if (p.role === 'teacher') d[1] += sign;
    if (p.role === 'student') d[2] += sign;
    deltas.set(p.tenantId, d);
  };
  count(from, -1);
  count(to, 1);
  const moved = [...deltas].filter(([, d]) => d.some((n) => n !== 0));
  if (moved.length === 0) return;
  await tx.$executeRawUnsafe(
    `insert into tenant_figures as f (tenant_id, users, teachers, students)
     select * from unnest($1::uuid[], $2::int[], $3::int[], $4::int[])
     on conflict (tenant_id) do update set users = f.users + excluded.users, teachers = f.teachers + excluded.teachers,
       students = f.students + excluded.students`,
    moved.map(([tenantId]) => tenantId),
    moved.map(([, d]) => d[0]),
    moved.map(([, d]) => d[1]),
    moved.map(([, d]) => d[2]),
  );
}

/** A deleted user leaves nothing behind: their results (and the figures they fed), classes' memberships, practice. */
/** A deleted user is kept as the sha256 of their id (migration 003): the id itself is gone. */
const userHash = (param: string) => `encode(sha256(convert_to(${param}::uuid::text, 'UTF8')), 'hex')`;
const deleted = (param: string) => `exists (select 1 from deleted_users where user_hash = ${userHash(param)})`;

/**
 * Deletes every read-model row of the person (moving the running figures) and adds their number to
 * deleted_users.erased_rows; returns the rows erased for the person so far, by either consumer.
 */
export async function deletePerson(tx: Tx, userId: string, at: Date): Promise<number> {
  await lockUser(tx, userId, 'exclusive');
  await lockMastery(tx, [userId]);
  await tx.$executeRawUnsafe(
    `insert into deleted_users (user_hash, deleted_at) values (${userHash('$1')}, $2) on conflict (user_hash) do nothing`,
    userId,
    at,
  );
  // Results and their answers (deleted with them by the foreign key) are counted before they go.
  const [results] = await tx.$queryRawUnsafe<{ n: number }[]>(
    `select ((select count(*) from results where student_id = $1)
           + (select count(*) from result_answers a join results r using (result_id) where r.student_id = $1))::int as n`,
    userId,
  );
  let erased = results?.n ?? 0;
  // Their evidence and mastery of standards, taken out of the class figures.
  erased += await forgetEvidence(tx, 'student_id = $1', [userId]);
  await removeResults(tx, 'student_id = $1', [userId]);
  erased += await tx.$executeRawUnsafe('delete from memberships where student_id = $1', userId);
  erased += await tx.$executeRawUnsafe('delete from practice_completions where student_id = $1', userId);
  erased += await tx.$executeRawUnsafe('delete from attempt_progress where student_id = $1', userId);
  erased += await tx.$executeRawUnsafe('delete from student_figures where student_id = $1', userId);
  // Their notifications too, counted here: whichever consumer erases the person first counts them.
  erased += await forgetNotifications(tx, userId);
  const [gone] = await tx.$queryRawUnsafe<{ tenant_id: string; role: string; disabled: boolean }[]>(
    'delete from people where user_id = $1 returning tenant_id, role, disabled',
    userId,
  );
  if (gone) erased++;
  if (gone && !gone.disabled) await countPerson(tx, { tenantId: gone.tenant_id, role: gone.role }, undefined);
  const [total] = await tx.$queryRawUnsafe<{ n: number }[]>(
    `update deleted_users set erased_rows = erased_rows + $2 where user_hash = ${userHash('$1')} returning erased_rows as n`,
    userId,
    erased,
  );
  return total?.n ?? erased;
}

export async function upsertClass(tx: Tx, c: ClassRow): Promise<void> {
  await tx.$executeRawUnsafe(
    `insert into classes (class_id, tenant_id, teacher_id, name, subject, period, created_at, co_teacher_ids)
     values ($1, $2, $3, $4, $5, nullif($6, ''), $7, $8::uuid[])
     on conflict (class_id) do update set name = excluded.name, subject = excluded.subject,
       period = excluded.period, teacher_id = excluded.teacher_id, co_teacher_ids = excluded.co_teacher_ids`,
    c.classId,
    c.tenantId,
    c.teacherId,
    c.name,
    c.subject,
    c.period,
    c.at,
    c.coTeacherIds,
  );
}

/** The class's co-teachers as the copy has them (none: not known yet). */
export async function coTeachersOf(tx: Tx, classId: string): Promise<string[]> {
  const rows = await tx.$queryRawUnsafe<{ co_teacher_ids: string[] }[]>(
    'select co_teacher_ids from classes where class_id = $1',
    classId,
  );
  return rows[0]?.co_teacher_ids ?? [];
}

/** Mails each newly added co-teacher we know the address of (not disabled) that they teach the class now. */
export async function mailNewCoTeachers(
  tx: Tx,
  cls: { classId: string; className: string; ownerId: string },
  teacherIds: string[],
  baseUrl: string,
): Promise<void> {
  const people = await tx.$queryRawUnsafe<{ user_id: string; first_name: string; last_name: string; email: string }[]>(
    `select user_id, first_name, last_name, email from people
      where user_id = any($1::uuid[]) and not disabled and email <> ''`,
    [...teacherIds, cls.ownerId],
  );
  const owner = people.find((p) => p.user_id === cls.ownerId);
  const ownerName = owner ? `${owner.first_name} ${owner.last_name}`.trim() : '';
  for (const p of people) {
    if (p.user_id === cls.ownerId || !teacherIds.includes(p.user_id)) continue;
    const mail = composeCoTeacherMail(
      { firstName: p.first_name, ownerName, className: cls.className, classId: cls.classId },
      baseUrl,
    );
    await enqueueMail(tx, { to: p.email, ...mail });
  }
}

export async function setClassArchived(tx: Tx, classId: string, archived: boolean): Promise<void> {
  await tx.$executeRawUnsafe('update classes set archived = $2 where class_id = $1', classId, archived);
}

/**
 * The class and its memberships go at once; its assessments and results follow with the
 * AssessmentDeleted events the assessment service sends for each (until then no query shows
 * them: every read joins the class).
 */
export async function deleteClass(tx: Tx, classId: string): Promise<void> {
  await tx.$executeRawUnsafe('delete from assessment_classes where class_id = $1', classId);
  await tx.$executeRawUnsafe('delete from memberships where class_id = $1', classId);
  await tx.$executeRawUnsafe('delete from classes where class_id = $1', classId);
}

export async function upsertMembership(
  tx: Tx,
  m: { classId: string; studentId: string; tenantId: string; at: Date },
): Promise<void> {
  await lockUser(tx, m.studentId, 'shared');
  await tx.$executeRawUnsafe(
    `insert into memberships (class_id, student_id, tenant_id, joined_at)
     select $1, $2, $3, $4 where not ${deleted('$2')}
     on conflict (class_id, student_id) do nothing`,
    m.classId,
    m.studentId,
    m.tenantId,
    m.at,
  );
}

export async function deleteMembership(tx: Tx, classId: string, studentId: string): Promise<void> {
  await tx.$executeRawUnsafe('delete from memberships where class_id = $1 and student_id = $2', classId, studentId);
}

export async function upsertAssessment(tx: Tx, a: AssessmentRow): Promise<void> {
  await tx.$executeRawUnsafe(
    `insert into assessments (assessment_id, tenant_id, class_id, title, description, topic, standard, is_active, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, coalesce($8, true), $9)
     on conflict (assessment_id) do update set class_id = excluded.class_id, title = excluded.title,
       description = excluded.description, topic = excluded.topic, standard = excluded.standard,
       is_active = coalesce($8, assessments.is_active)`,
    a.assessmentId,
    a.tenantId,
    a.classId,
    a.title,
    a.description,
    a.topic,
    a.standard,
    a.isActive ?? null,
    a.at,
  );
}

export async function setAssessmentActive(tx: Tx, assessmentId: string, isActive: boolean): Promise<void> {
  await tx.$executeRawUnsafe('update assessments set is_active = $2 where assessment_id = $1', assessmentId, isActive);
}

export async function deleteAssessment(tx: Tx, assessmentId: string, classId: string): Promise<void> {
  await forgetEvidence(tx, 'assessment_id = $1', [assessmentId]);
  await removeResults(tx, 'assessment_id = $1', [assessmentId]);
  await tx.$executeRawUnsafe('delete from questions where assessment_id = $1', assessmentId);
  await tx.$executeRawUnsafe('delete from practice_completions where assessment_id = $1', assessmentId);
  await tx.$executeRawUnsafe('delete from attempt_progress where assessment_id = $1', assessmentId);
  await tx.$executeRawUnsafe('delete from assessment_classes where assessment_id = $1', assessmentId);
  await tx.$executeRawUnsafe('delete from assessments where assessment_id = $1', assessmentId);
  await notifyLive(tx, classId, assessmentId, null);
}

/** Replaces the questions of an assessment with the list the event carries, in its order. */
export async function replaceQuestions(tx: Tx, assessmentId: string, questions: QuestionRow[]): Promise<void> {
  await tx.$executeRawUnsafe('delete from questions where assessment_id = $1', assessmentId);
  if (questions.length === 0) return;
  await tx.$executeRawUnsafe(
    `insert into questions (assessment_id, question_id, position, question_text, question_type, options, correct_answer, points)
     select $1, q.id, q.pos, q.txt, q.typ, array(select jsonb_array_elements_text(q.opts)), q.ans, q.pts
       from unnest($2::uuid[], $3::int[], $4::text[], $5::text[], $6::jsonb[], $7::text[], $8::float8[])
            as q(id, pos, txt, typ, opts, ans, pts)
     on conflict (assessment_id, question_id) do nothing`,
    assessmentId,
    questions.map((q) => q.questionId),
    questions.map((_, i) => i + 1),
    questions.map((q) => q.questionText),
    questions.map((q) => q.questionType),
    questions.map((q) => JSON.stringify(q.options)),
    questions.map((q) => q.correctAnswer),
    questions.map((q) => q.points),
  );
}

/** Stores a submitted result once; the figures and the live view move only when it is new. */
export async function insertResult(tx: Tx, r: ResultRow): Promise<void> {
  await lockUser(tx, r.studentId, 'shared');
  const inserted = await tx.$queryRawUnsafe<{ result_id: string }[]>(
    `insert into results (result_id, tenant_id, class_id, assessment_id, student_id, earned_points, total_points,
                          percentage, level, submitted_at, attempt)
     select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 where not ${deleted('$5')}
     on conflict (result_id) do nothing returning result_id`,
    r.resultId,
    r.tenantId,
    r.classId,
    r.assessmentId,
    r.studentId,
    r.earnedPoints,
    r.totalPoints,
    r.percentage,
    r.level,
    r.submittedAt,
    Math.max(1, r.attempt ?? 1),
  );
  if (inserted.length === 0) return;
  // The attempt is over: the result stands for it from now on (a later attempt's progress stays:
  // a reopened attempt whose earlier attempt counts meanwhile).
  await tx.$executeRawUnsafe(
    'delete from attempt_progress where assessment_id = $1 and student_id = $2 and attempt <= $3',
    r.assessmentId,
    r.studentId,
    Math.max(1, r.attempt ?? 1),
  );
  if (r.answers.length > 0) {
    await tx.$executeRawUnsafe(
      `insert into result_answers (result_id, question_id, answer, correct, pending, shown_options)
       select $1, a.q, a.ans, a.ok, a.p, ${SHOWN_OPTIONS('a.s')}
         from unnest($2::uuid[], $3::text[], $4::boolean[], $5::boolean[], $6::jsonb[]) as a(q, ans, ok, p, s)
       on conflict (result_id, question_id) do nothing`,
      r.resultId,
      r.answers.map((a) => a.questionId),
      r.answers.map((a) => a.answer),
      r.answers.map((a) => a.correct),
      r.answers.map((a) => a.pending ?? false),
      shownJson(r.answers),
    );
  }
  // Evidence for the standards its questions are aligned to (docs/architecture.md, "Mastery").
  await recordEvidence(tx, [r.resultId]);
  const moved = await studentFigures(tx, r.tenantId, r.studentId, r.percentage, 1);
  await tenantFigures(tx, r.tenantId, r.percentage, r.level, 1, moved);
  await notifyLive(tx, r.classId, r.assessmentId, r.resultId);
}

/**
 * The student's result of the assessment that counts is now `r` (a retake's counted submission,
 * or CountedResultChanged): any other result of theirs for it leaves the figures, evidence and
 * item statistics first, then `r` is stored as a submitted result. Only counted results are kept.
 */
export async function replaceCountedResult(tx: Tx, r: ResultRow): Promise<void> {
  const others = [
    'assessment_id = $1 and student_id = $2 and result_id <> $3',
    [r.assessmentId, r.studentId, r.resultId],
  ] as const;
  await forgetEvidence(tx, others[0], [...others[1]]);
  await removeResults(tx, others[0], [...others[1]]);
  await insertResult(tx, r);
}

/**
 * A reopened attempt's result is withdrawn: out of the figures, evidence and item statistics, and
 * the attempt is in progress again in the live views, with the answers it was scored from (they
 * stay saved). A result not kept here (an attempt that did not count) was the latest attempt,
 * shown submitted by its progress row: that row is in progress again.
 */
export async function withdrawResult(
  tx: Tx,
  w: { resultId: string; assessmentId: string; studentId: string; at: Date },
): Promise<void> {
  const [kept] = await tx.$queryRawUnsafe<{ attempt: number }[]>(
    `insert into attempt_progress (assessment_id, student_id, tenant_id, class_id, answered, question_count,
                                   started_at, updated_at, attempt, submitted_at)
     select r.assessment_id, r.student_id, r.tenant_id, r.class_id,
            (select count(*) from result_answers x where x.result_id = r.result_id and btrim(x.answer) <> '')::int,
            (select count(*) from questions q where q.assessment_id = r.assessment_id)::int,
            null, $2, r.attempt, null
       from results r where r.result_id = $1
     on conflict (assessment_id, student_id) do update
        set answered = excluded.answered, question_count = excluded.question_count, started_at = null,
            updated_at = excluded.updated_at, attempt = excluded.attempt, submitted_at = null
     returning attempt`,
    w.resultId,
    w.at,
  );
  if (!kept) {
    await tx.$executeRawUnsafe(
      `update attempt_progress set submitted_at = null, updated_at = greatest(updated_at, $3)
        where assessment_id = $1 and student_id = $2 and submitted_at is not null`,
      w.assessmentId,
      w.studentId,
      w.at,
    );
  }
  await forgetEvidence(tx, 'result_id = $1', [w.resultId]);
  await removeResults(tx, 'result_id = $1', [w.resultId]);
}

/**
 * A retake was granted: the student's attempt `attempt` is open, not started (no answer saved yet),
 * in the live views instead of the result of the earlier one (which keeps counting meanwhile).
 */
export async function openRetake(
  tx: Tx,
  r: { assessmentId: string; studentId: string; tenantId: string; classId: string; attempt: number; at: Date },
): Promise<void> {
  await lockUser(tx, r.studentId, 'shared');
  const kept = await tx.$queryRawUnsafe<{ class_id: string }[]>(
    `insert into attempt_progress (assessment_id, student_id, tenant_id, class_id, answered, question_count,
                                   started_at, updated_at, attempt, submitted_at)
     select $1, $2, $3, $4, null, (select count(*) from questions q where q.assessment_id = $1)::int, null, $6, $5, null
      where not ${deleted('$2')}
     on conflict (assessment_id, student_id) do update
        set answered = null, question_count = excluded.question_count, started_at = null,
            updated_at = excluded.updated_at, attempt = excluded.attempt, submitted_at = null
      where excluded.attempt > attempt_progress.attempt
         or (excluded.attempt = attempt_progress.attempt and attempt_progress.submitted_at is not null
             and excluded.updated_at >= attempt_progress.updated_at)
     returning class_id`,
    r.assessmentId,
    r.studentId,
    r.tenantId,
    r.classId,
    r.attempt,
    r.at,
  );
  if (kept.length > 0) await notifyLive(tx, r.classId, r.assessmentId, null, 'progress');
}

/**
 * A submitted attempt that does not count (results keeps the counted one): the live views show it
 * submitted, through its progress row. Nothing when a later attempt is already open.
 */
export async function noteUncountedSubmission(
  tx: Tx,
  r: { assessmentId: string; studentId: string; tenantId: string; classId: string; attempt: number; submittedAt: Date },
  answered: number,
): Promise<void> {
  await lockUser(tx, r.studentId, 'shared');
  const kept = await tx.$queryRawUnsafe<{ class_id: string }[]>(
    `insert into attempt_progress (assessment_id, student_id, tenant_id, class_id, answered, question_count,
                                   started_at, updated_at, attempt, submitted_at)
     select $1, $2, $3, $4, $7, (select count(*) from questions q where q.assessment_id = $1)::int, null, $6, $5, $6
      where not ${deleted('$2')}
     on conflict (assessment_id, student_id) do update
        set answered = excluded.answered, updated_at = excluded.updated_at, attempt = excluded.attempt,
            submitted_at = excluded.submitted_at
      where excluded.attempt >= attempt_progress.attempt
     returning class_id`,
    r.assessmentId,
    r.studentId,
    r.tenantId,
    r.classId,
    r.attempt,
    r.submittedAt,
    answered,
  );
  if (kept.length > 0) await notifyLive(tx, r.classId, r.assessmentId, null, 'progress');
}

export interface ProgressRow {
  assessmentId: string;
  tenantId: string;
  classId: string;
  studentId: string;
  answeredCount: number;
  questionCount: number;
  startedAt: Date;
  at: Date;
}

/**
 * Keeps the latest count of an attempt not yet submitted (an older event never overwrites a newer
 * one; none is kept once the attempt's result exists or of a deleted student) and tells the live
 * views. The attempt is the open one of the progress row (a retake granted or a reopening; the
 * first attempt when there is none): a result of an earlier attempt does not stop it.
 */
export async function recordProgress(tx: Tx, p: ProgressRow): Promise<void> {
  await lockUser(tx, p.studentId, 'shared');
  const kept = await tx.$queryRawUnsafe<{ class_id: string }[]>(
    `insert into attempt_progress (assessment_id, student_id, tenant_id, class_id, answered, question_count,
                                   started_at, updated_at)
     select $1, $2, $3, $4, $5, $6, $7, $8
      where not ${deleted('$2')}
        and not exists (select 1 from results r where r.assessment_id = $1 and r.student_id = $2
                           and r.attempt >= coalesce((select ap.attempt from attempt_progress ap
                                                       where ap.assessment_id = $1 and ap.student_id = $2
                                                         and ap.submitted_at is null), 1))
     on conflict (assessment_id, student_id) do update
        set answered = excluded.answered, question_count = excluded.question_count,
            started_at = least(attempt_progress.started_at, excluded.started_at), updated_at = excluded.updated_at
      where excluded.updated_at >= attempt_progress.updated_at and attempt_progress.submitted_at is null
     returning class_id`,
    p.assessmentId,
    p.studentId,
    p.tenantId,
    p.classId,
    p.answeredCount,
    p.questionCount,
    p.startedAt,
    p.at,
  );
  if (kept.length > 0) await notifyLive(tx, p.classId, p.assessmentId, null, 'progress');
}

/**
 * A teacher's regrade: the result takes the event's totals, level and answers (the assessment
 * service's one rule decided them); the running figures move from the old percentage and level to
 * the new; the result's mastery evidence is scored again; the live views are told. A result not
 * here (its student deleted) stays gone.
 */
export async function regradeResult(tx: Tx, r: RegradedRow): Promise<void> {
  const [old] = await tx.$queryRawUnsafe<
    {
      tenant_id: string;
      class_id: string;
      assessment_id: string;
      student_id: string;
      percentage: number;
      level: Level;
    }[]
  >(
    `select tenant_id, class_id, assessment_id, student_id, percentage, level from results where result_id = $1 for update`,
    r.resultId,
  );
  if (!old) return;
  await lockUser(tx, old.student_id, 'shared');
  // A practice raise stays on record while it lifts the level; otherwise the score's level is the level.
  await tx.$executeRawUnsafe(
    `update results set earned_points = $2, total_points = $3, percentage = $4, level = $5,
            original_level = case when $5 <> $6 then $6 when raised_by is not null then $6 else null end
      where result_id = $1`,
    r.resultId,
    r.earnedPoints,
    r.totalPoints,
    r.percentage,
    r.level,
    r.scoreLevel,
  );
  await tx.$executeRawUnsafe(
    `insert into result_answers (result_id, question_id, answer, correct, pending, earned_points, shown_options)
     select $1, a.q, a.ans, a.ok, a.p, a.e, ${SHOWN_OPTIONS('a.s')}
       from unnest($2::uuid[], $3::text[], $4::boolean[], $5::boolean[], $6::float8[], $7::jsonb[]) as a(q, ans, ok, p, e, s)
     on conflict (result_id, question_id) do update
        set answer = excluded.answer, correct = excluded.correct, pending = excluded.pending,
            earned_points = excluded.earned_points, shown_options = excluded.shown_options`,
    r.resultId,
    r.answers.map((a) => a.questionId),
    r.answers.map((a) => a.answer),
    r.answers.map((a) => a.correct),
    r.answers.map((a) => a.pending),
    r.answers.map((a) => a.earnedPoints),
    shownJson(r.answers),
  );
  await rescoreResult(tx, r.resultId, old.student_id);
  if (old.percentage !== r.percentage || old.level !== r.level) {
    // Out with the old figures, in with the new (the student's band may move both ways).
    const out = await studentFigures(tx, old.tenant_id, old.student_id, old.percentage, -1);
    await tenantFigures(tx, old.tenant_id, old.percentage, old.level, -1, out);
    const back = await studentFigures(tx, old.tenant_id, old.student_id, r.percentage, 1);
    await tenantFigures(tx, old.tenant_id, r.percentage, r.level, 1, back);
  }
  await notifyLive(tx, old.class_id, old.assessment_id, r.resultId);
}

export async function changeResultLevel(
  tx: Tx,
  resultId: string,
  toLevel: Level,
  raisedAttempt: number | null = null,
): Promise<void> {
  const changed = await tx.$queryRawUnsafe<
    {
      tenant_id: string;
      class_id: string;
      assessment_id: string;
      student_id: string;
      percentage: number;
      from_level: Level;
    }[]
  >(
    // The score's own level stays as original_level; ResultLevelRaised comes only from practice.
    `update results r set level = $2, original_level = coalesce(r.original_level, old.from_level), raised_by = 'practice',
            raised_attempt = $3
       from (select result_id, level as from_level from results where result_id = $1 for update) old
      where r.result_id = old.result_id and old.from_level <> $2
      returning r.tenant_id, r.class_id, r.assessment_id, r.student_id, r.percentage, old.from_level`,
    resultId,
    toLevel,
    raisedAttempt,
  );
  const row = changed[0];
  if (!row) return;
  // Only the level counts move (percentage sums cancel out, the student's figures hold no levels).
  await tenantFigures(tx, row.tenant_id, 0, row.from_level, -1);
  await tenantFigures(tx, row.tenant_id, 0, toLevel, 1);
  await notifyLive(tx, row.class_id, row.assessment_id, resultId);
}

export async function recordPractice(
  tx: Tx,
  p: { assessmentId: string; studentId: string; type: string; tenantId: string; score: number; at: Date },
): Promise<void> {
  await lockUser(tx, p.studentId, 'shared');
  await tx.$executeRawUnsafe(
    `insert into practice_completions (assessment_id, student_id, type, tenant_id, attempts, best_score, last_completed_at)
     select $1, $2, $3, $4, 1, $5, $6 where not ${deleted('$2')}
     on conflict (assessment_id, student_id, type) do update set attempts = practice_completions.attempts + 1,
       best_score = greatest(practice_completions.best_score, excluded.best_score),
       last_completed_at = greatest(practice_completions.last_completed_at, excluded.last_completed_at)`,
    p.assessmentId,
    p.studentId,
    p.type,
    p.tenantId,
    p.score,
    p.at,
  );
}

/**
 * Adds (sign 1) or takes out (-1) one result of `level` in the tenant's figures. A level change
 * takes the result out at the old level and in at the new one with percentage 0, so only the level
 * counts move.
 */
async function tenantFigures(
  tx: Tx,
  tenantId: string,
  percentage: number,
  level: Level,
  sign: 1 | -1,
  students: BandMoves = NO_MOVES,
) {
  await tx.$executeRawUnsafe(
    `insert into tenant_figures as f (tenant_id, results, percentage_sum, below, at, above,
                                      students_below, students_at, students_above)
     values ($1, $2::int, $3::float8 * $2::int, case when $4::text = 'below' then $2::int else 0 end,
             case when $4::text = 'at' then $2::int else 0 end, case when $4::text = 'above' then $2::int else 0 end,
             $5::int, $6::int, $7::int)
     on conflict (tenant_id) do update set results = f.results + excluded.results,
       percentage_sum = f.percentage_sum + excluded.percentage_sum, below = f.below + excluded.below,
       at = f.at + excluded.at, above = f.above + excluded.above,
       students_below = f.students_below + excluded.students_below,
       students_at = f.students_at + excluded.students_at, students_above = f.students_above + excluded.students_above`,
    tenantId,
    sign,
    percentage,
    level,
    students.below,
    students.at,
    students.above,
  );
}

/** How many of a tenant's students entered (1) or left (-1) each band. */
type BandMoves = Record<Level, number>;
const NO_MOVES: BandMoves = { below: 0, at: 0, above: 0 };

const STUDENT_BAND = (n: string, s: string) =>
  `case when ${n} > 0 then case when round(round((${s} / ${n})::numeric, 6)) >= 80 then 'above'
     when round(round((${s} / ${n})::numeric, 6)) >= 60 then 'at' else 'below' end end`;

/** Adds (sign 1) or takes out (-1) one result of the student within the tenant. */
async function studentFigures(
  tx: Tx,
  tenantId: string,
  studentId: string,
  percentage: number,
  sign: 1 | -1,
): Promise<BandMoves> {
  // The sums after this result less it are the sums before (atomically: another consumer may add
  // a result of the same student at the same time).
  const [after] = await tx.$queryRawUnsafe<{ results: number; percentage_sum: number }[]>(
    `insert into student_figures as f (tenant_id, student_id, results, percentage_sum)
     values ($1, $2, $3::int, $4::float8 * $3::int)
     on conflict (tenant_id, student_id) do update set results = f.results + excluded.results,
       percentage_sum = f.percentage_sum + excluded.percentage_sum
     returning f.results, f.percentage_sum`,
    tenantId,
    studentId,
    sign,
    percentage,
  );
  if (!after) return NO_MOVES;
  const from = studentBand(after.results - sign, after.percentage_sum - sign * percentage);
  const to = studentBand(after.results, after.percentage_sum);
  const move = (band: Level) => (band === to ? 1 : 0) - (band === from ? 1 : 0);
  return { below: move('below'), at: move('at'), above: move('above') };
}

/** Deletes the results matching `where` (on `results`) and takes them out of the running figures. */
export async function removeResults(tx: Tx, where: string, values: unknown[]): Promise<void> {
  await tx.$executeRawUnsafe(
    `with gone as (delete from results where ${where}
                   returning tenant_id, student_id, class_id, assessment_id, percentage, level),
          by_student as (
            update student_figures f set results = f.results - g.n, percentage_sum = f.percentage_sum - g.s
              from (select tenant_id, student_id, count(*)::int as n, sum(percentage) as s
                      from gone group by tenant_id, student_id) g
             where f.tenant_id = g.tenant_id and f.student_id = g.student_id
            returning f.tenant_id, ${STUDENT_BAND('(f.results + g.n)', '(f.percentage_sum + g.s)')} as was,
                      ${STUDENT_BAND('f.results', 'f.percentage_sum')} as now),
          moved as (
            select tenant_id,
                   (count(*) filter (where now = 'below') - count(*) filter (where was = 'below'))::int as below,
                   (count(*) filter (where now = 'at') - count(*) filter (where was = 'at'))::int as at,
                   (count(*) filter (where now = 'above') - count(*) filter (where was = 'above'))::int as above
              from by_student group by tenant_id),
          by_tenant as (
            update tenant_figures f set results = f.results - g.n, percentage_sum = f.percentage_sum - g.s,
                   below = f.below - g.below, at = f.at - g.at, above = f.above - g.above,
                   students_below = f.students_below + coalesce(m.below, 0),
                   students_at = f.students_at + coalesce(m.at, 0),
                   students_above = f.students_above + coalesce(m.above, 0)
              from (select tenant_id, count(*)::int as n, sum(percentage) as s,
                           count(*) filter (where level = 'below')::int as below,
                           count(*) filter (where level = 'at')::int as at,
                           count(*) filter (where level = 'above')::int as above
                      from gone group by tenant_id) g
              left join moved m on m.tenant_id = g.tenant_id
             where f.tenant_id = g.tenant_id)
     select pg_notify('${LIVE_CHANNEL}', json_build_object('classId', class_id, 'assessmentId', assessment_id)::text)
       from (select distinct class_id, assessment_id from gone) changed`,
    ...values,
  );
}

async function notifyLive(
  tx: Tx,
  classId: string,
  assessmentId: string,
  resultId: string | null,
  kind: 'result' | 'progress' = 'result',
): Promise<void> {
  // Progress notices name no student: equal payloads of one transaction (a batch of a class's
  // saves) reach the listeners as one notice.
  await tx.$queryRawUnsafe(
    'select pg_notify($1, $2)',
    LIVE_CHANNEL,
    JSON.stringify({
      classId,
      assessmentId,
      ...(resultId ? { resultId } : {}),
      ...(kind === 'progress' ? { kind } : {}),
    }),
  );
}
