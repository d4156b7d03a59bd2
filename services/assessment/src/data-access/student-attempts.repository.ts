// What students do with an assessment: open it, save answers, submit, read their results. The
// calls a whole class makes at once (open, save, submit) run straight on pg with named prepared
// statements, parsed and planned once per connection, without the ORM layer (bench/README.md);
// the rest are Prisma raw reads. No rule is decided here and no event written: the use case
// (domain/assessments.use-case.ts) opens the transaction, decides, and adds the event.
import { randomUUID } from 'node:crypto';
import type {
  AssessmentRow,
  CountedAttempt,
  ResultQuestionRecord,
  ResultRow,
  StudentAccess,
  StudentAssessmentRow,
} from '../domain/assessment.ts';
import type { PerformanceLevel, RaisedBy, Score } from '../domain/scoring.ts';
import { sqlExecutor, type SqlExecutor } from '@checkpoint/events';
import { inTransaction } from '@checkpoint/service-kit';
import type pg from 'pg';
import {
  assessmentSelect,
  prepared,
  toAssessment,
  toQuestion,
  toResponse,
  type AssessmentSqlRow,
  type QuestionSqlRow,
  type ResponseRecord,
  type ResponseSqlRow,
} from './assessment-rows.ts';
import type { Db } from './prisma.ts';

/**
 * One transaction on one pooled connection (`transaction`): the calls below that take it run in
 * it, and so does an outbox row written through it (it is the events' SqlExecutor).
 */
export interface AttemptTx extends SqlExecutor {
  readonly client: pg.PoolClient;
}

/**
 * Saved (`answeredChanged`: the save changed how many questions are answered: a first answer, or
 * one cleared), or refused with what the use case needs to say why (or to see a stale replay).
 */
export type SaveOutcome =
  | { saved: ResponseRecord; answeredChanged?: boolean }
  | { refused: StudentAccess | undefined; questionOk: boolean; stored?: ResponseRecord };

/** How far an attempt is (answered = a non-blank answer), for its AttemptProgressed event. */
export interface AttemptProgress {
  tenantId: string;
  classId: string;
  answeredCount: number;
  questionCount: number;
  startedAt: Date;
}

/** A scored submission to store. */
export interface NewResult {
  assessmentId: string;
  tenantId: string;
  classId: string;
  studentId: string;
  score: Score;
  submittedAt: Date;
  /** The review: each question as it was scored. */
  questions: ResultQuestionRecord[];
}

export type StudentAttemptsRepository = ReturnType<typeof studentAttemptsRepository>;

/**
 * A result with what its views show; `source` is the results table or a CTE of new rows. Lists
 * leave out the per-question review (`withQuestions`), which only the single result shows.
 */
export const resultSelect = (source = 'results', withQuestions = false) => `
  select r.id, r.assessment_id, r.student_id, r.class_id, r.tenant_id, r.total_points, r.earned_points,
         r.percentage, r.performance_level, r.original_level, r.raised_by, r.raised_attempt, r.correct_answers, r.incorrect_answers, r.total_questions,
         r.submitted_at, r.attempt, r.superseded, r.counted, a.max_attempts, a.counted_attempt,
         a.title, a.description, coalesce(c.name, '') as class_name, a.teacher_id,
         r.feedback, r.pending_review, r.regraded_at,
         p.first_name, p.last_name${withQuestions ? ', r.questions' : ''}
    from ${source} r
    join assessments a on a.id = r.assessment_id
    left join classes c on c.class_id = r.class_id
    left join people p on p.user_id = r.student_id`;
const RESULT_SELECT = resultSelect();

export interface ResultSqlRow {
  id: string;
  assessment_id: string;
  student_id: string;
  class_id: string;
  tenant_id: string;
  total_points: number;
  earned_points: number;
  percentage: number;
  performance_level: PerformanceLevel;
  original_level: PerformanceLevel | null;
  raised_by: RaisedBy | null;
  raised_attempt: number | null;
  correct_answers: number;
  incorrect_answers: number;
  total_questions: number;
  submitted_at: Date;
  attempt: number;
  superseded: boolean;
  counted: boolean;
  max_attempts: number;
  counted_attempt: CountedAttempt;
  feedback: string | null;
  pending_review: number;
  regraded_at: Date | null;
  title: string;
  description: string;
  class_name: string;
  teacher_id: string;
  first_name: string | null;
  last_name: string | null;
}

/** The review written at submission (jsonb, read back as parsed JSON); null for older results. */
export type ResultWithQuestionsSqlRow = ResultSqlRow & { questions: ResultQuestionRecord[] | null };

export const toResult = (r: ResultSqlRow): ResultRow => ({
  id: r.id,
  assessmentId: r.assessment_id,
  studentId: r.student_id,
  classId: r.class_id,
  tenantId: r.tenant_id,
  totalPoints: r.total_points,
  earnedPoints: r.earned_points,
  percentage: r.percentage,
  performanceLevel: r.performance_level,
  originalLevel: r.original_level ?? r.performance_level,
  raisedBy: r.raised_by,
  raisedAttempt: r.raised_attempt,
  correctAnswers: r.correct_answers,
  incorrectAnswers: r.incorrect_answers,
  totalQuestions: r.total_questions,
  submittedAt: r.submitted_at,
  attempt: r.attempt,
  superseded: r.superseded,
  counted: r.counted,
  maxAttempts: r.max_attempts,
  countedAttempt: r.counted_attempt,
  feedback: r.feedback,
  pendingReview: r.pending_review,
  regradedAt: r.regraded_at,
  title: r.title,
  description: r.description,
  className: r.class_name,
  teacherId: r.teacher_id,
  firstName: r.first_name,
  lastName: r.last_name,
});

/**
 * What a student may do with an assessment ($1 assessment, $2 student). `lockSubmission` also
 * takes, for the rest of the transaction, a key share of the assessment's row and then the
 * (student, assessment) submission lock (see submit). The key share is what the result's foreign
 * key takes anyway, only taken before the questions are read: a teacher's change of the questions
 * (which locks the row for update) then either ends before the submit reads them, or waits for the
 * result and is refused. It comes first (the lock's key is computed from the locked row), so a
 * submit waiting for a teacher's change holds no submission lock: the student's saves go on, and
 * a deletion of a question, which takes its answers with it, never waits for a save that waits
 * for the submit.
 */
/**
 * An assessment's window (`a`), by the database's clock: open from opens_at (inclusive), closed
 * from closes_at (inclusive); a null bound is no bound.
 */
const NOT_YET_OPEN = 'coalesce(a.opens_at > now(), false)';
const WINDOW_CLOSED = 'coalesce(a.closes_at <= now(), false)';
const IN_WINDOW = `not ${NOT_YET_OPEN} and not ${WINDOW_CLOSED}`;
/**
 * The student's time limit in seconds (`a`, their accommodations `acc`, migrations/026): the
 * assessment's, multiplied by their extra time; null when untimed or their accommodation is no limit.
 */
const TIME_LIMIT = `case when coalesce(acc.no_time_limit, false) then null
  else ceil(a.time_limit_seconds * coalesce(acc.extra_time, 1))::int end`;
/** The student's accommodations as `acc` (none: no row). */
const ACCOMMODATIONS = (student: string) => `left join accommodations acc on acc.student_id = ${student}`;
/** A timed attempt's deadline (`a`, its start `st`, `acc`): null when untimed or not started. */
const DEADLINE = `st.started_at + ${TIME_LIMIT} * interval '1 second'`;
/**
 * The student ($4 in the save, $2 elsewhere) may still answer within the time limit: untimed, or
 * started and before the deadline (a timed attempt starts when the questions are first read).
 */
const IN_TIME = (student: string) => `(a.time_limit_seconds is null
        or exists (select 1 from accommodations acc where acc.student_id = ${student} and acc.no_time_limit)
        or exists (
           select 1 from attempt_starts st ${ACCOMMODATIONS('st.student_id')}
            where st.assessment_id = a.id and st.student_id = ${student} and ${DEADLINE} > now()))`;

/**
 * The assignments that give the assessment (`a`) to the student (SQL expression `student`): a live
 * class of theirs it is assigned to, wholly or with them among the chosen (migrations/018).
 */
const ASSIGNED_TO = (student: string) => `
  select x.class_id from assessment_assignments x
    join memberships m on m.class_id = x.class_id and m.student_id = ${student}
    join classes xc on xc.class_id = x.class_id and not xc.archived
   where x.assessment_id = a.id and (x.whole_class or ${student} = any(x.student_ids))`;
/**
 * The class the student takes it through (`sa.class_id`; no row: not given to them): its own class
 * first, then the first assigned. Their result and progress are filed under it.
 */
const STUDENT_CLASS = (student: string) => `left join lateral (${ASSIGNED_TO(student)}
   order by x.class_id = a.class_id desc, x.assigned_at, x.class_id limit 1) sa on true`;

const studentAccessSql = (lockSubmission: boolean) => `
  ${lockSubmission ? 'with locked as materialized (select id from assessments where id = $1::uuid for key share)' : ''}
  select a.id, a.tenant_id, coalesce(sa.class_id, a.class_id) as class_id, a.is_active,
         a.assigned_at is not null and sa.class_id is not null as assigned, c.archived and sa.class_id is null as archived,
         a.shuffle_questions, a.shuffle_options, a.review_short_answers, a.opens_at, a.closes_at,
         ${NOT_YET_OPEN} as not_yet_open, ${WINDOW_CLOSED} as window_closed,
         ${TIME_LIMIT} as time_limit_seconds, coalesce(acc.reduced_choices, 0) as reduced_choices,
         st.started_at, coalesce(${DEADLINE} <= now(), false) as time_up,
         case when ${DEADLINE} is null then null
              else greatest(0, ceil(extract(epoch from ${DEADLINE} - now())))::int end as seconds_left,
         sa.class_id is not null as member,
         (select r.id from results r where r.assessment_id = a.id and r.student_id = $2::uuid and not r.superseded) as result_id
    from assessments a left join classes c on c.class_id = a.class_id
    ${STUDENT_CLASS('$2::uuid')}
    left join attempt_starts st on st.assessment_id = a.id and st.student_id = $2::uuid
    ${ACCOMMODATIONS('$2::uuid')}
    ${lockSubmission ? 'cross join pg_advisory_xact_lock(submission_lock_key($2::uuid, (select id from locked)))' : ''}
   where a.id = $1::uuid`;

interface StudentAccessSqlRow {
  id: string;
  tenant_id: string;
  class_id: string;
  is_active: boolean;
  assigned: boolean;
  archived: boolean | null;
  member: boolean;
  result_id: string | null;
  shuffle_questions: boolean;
  shuffle_options: boolean;
  review_short_answers: boolean;
  opens_at: Date | null;
  closes_at: Date | null;
  not_yet_open: boolean;
  window_closed: boolean;
  time_limit_seconds: number | null;
  reduced_choices: number;
  started_at: Date | null;
  time_up: boolean;
  seconds_left: number | null;
}

const toStudentAccess = (r: StudentAccessSqlRow): StudentAccess => ({
  assessmentId: r.id,
  tenantId: r.tenant_id,
  classId: r.class_id,
  isActive: r.is_active,
  assigned: r.assigned,
  classArchived: r.archived !== false,
  member: r.member,
  resultId: r.result_id,
  reviewShortAnswers: r.review_short_answers,
  opensAt: r.opens_at,
  closesAt: r.closes_at,
  notYetOpen: r.not_yet_open,
  windowClosed: r.window_closed,
  timeLimitSeconds: r.time_limit_seconds,
  reducedChoices: r.reduced_choices,
  startedAt: r.started_at,
  secondsLeft: r.seconds_left,
  timeUp: r.time_up,
});

/** The student's access and what their view of the assessment shows, in one statement. */
const STUDENT_ASSESSMENT_SQL = `
  select s.*, a.title, a.description, a.due_date, a.created_at, c.name as class_name, c.subject,
         (select count(*) from questions q where q.assessment_id = a.id)::int as question_count
    from (${studentAccessSql(false)}) s
    join assessments a on a.id = s.id
    join classes c on c.class_id = s.class_id`;

interface StudentAssessmentSqlRow extends StudentAccessSqlRow {
  title: string;
  description: string;
  due_date: Date | null;
  created_at: Date;
  class_name: string;
  subject: string;
  question_count: number;
}

/**
 * The student's access ($1 assessment, $2 student) with the assessment's questions in order, in
 * one statement: a row per question (one with null question columns when there are none). The
 * caller decides from the access whether the questions may be shown. The access is a materialized
 * CTE: computed once, not once per question row.
 */
const STUDENT_QUESTIONS_SQL = `
  with s as materialized (${studentAccessSql(false)})
  select s.*, q.id as q_id, q.assessment_id as q_assessment_id, q.position, q.question_text,
         q.question_type, q.options, q.correct_answer, q.accepted_answers, q.points
    from s left join questions q on q.assessment_id = s.id
   order by q.position, q.id`;

interface StudentQuestionSqlRow extends StudentAccessSqlRow, Omit<QuestionSqlRow, 'id' | 'assessment_id'> {
  q_id: string | null;
  q_assessment_id: string;
}

/** The student's access with their own answers, oldest first, in one statement (as above). */
const STUDENT_RESPONSES_SQL = `
  with s as materialized (${studentAccessSql(false)})
  select s.*, r.id as r_id, r.question_id, r.answer, r.client_seq, r.updated_at, p.first_name, p.last_name
    from s
    left join responses r on r.assessment_id = s.id and r.student_id = $2::uuid
    left join people p on p.user_id = r.student_id
   order by r.updated_at, r.id`;

interface StudentResponseSqlRow
  extends StudentAccessSqlRow, Omit<ResponseSqlRow, 'id' | 'assessment_id' | 'student_id'> {
  r_id: string | null;
}

const accessOf = prepared<StudentAccessSqlRow>('student-access', studentAccessSql(false));
const lockedAccessOf = prepared<StudentAccessSqlRow>('student-access-locked', studentAccessSql(true));
const answeredQuestions = prepared<QuestionSqlRow & { answer: string | null }>(
  'answered-questions',
  `select q.id, q.assessment_id, q.position, q.question_text, q.question_type, q.options,
          q.correct_answer, q.accepted_answers, q.points, r.answer
     from questions q
     left join responses r on r.question_id = q.id and r.student_id = $2::uuid
    where q.assessment_id = $1::uuid
    order by q.position, q.id`,
);

const upsertResponse = prepared<ResponseSqlRow & { was_answered: boolean }>(
  'save-response',
  `with ok as (
     select a.id, a.tenant_id from assessments a
       join questions q on q.id = $3::uuid and q.assessment_id = a.id
      where a.id = $2::uuid and a.is_active and a.assigned_at is not null
        and exists (${ASSIGNED_TO('$4::uuid')})
        and ${IN_WINDOW} and ${IN_TIME('$4::uuid')}
        and not exists (select 1 from results r where r.assessment_id = a.id and r.student_id = $4::uuid and not r.superseded)),
   before as (select btrim(answer) <> '' as answered from responses where question_id = $3::uuid and student_id = $4::uuid)
   insert into responses (id, assessment_id, question_id, student_id, tenant_id, answer, client_seq)
   select $1::uuid, ok.id, $3::uuid, $4::uuid, ok.tenant_id, $5::text, $6::bigint from ok
   on conflict (question_id, student_id) do update
      set answer = excluded.answer, client_seq = excluded.client_seq, updated_at = now()
    where responses.client_seq is null or excluded.client_seq is null
       or excluded.client_seq >= responses.client_seq
   returning id, assessment_id, question_id, student_id, answer, client_seq, updated_at,
             coalesce((select answered from before), false) as was_answered`,
);
/**
 * The attempt's counts (answered = a non-blank answer), read under a per-attempt lock held to
 * the end of the transaction, so two saves of one attempt enqueue their counts in order.
 */
const attemptCounts = prepared<{
  tenant_id: string;
  class_id: string;
  answered: number;
  questions: number;
  started_at: Date;
}>(
  'attempt-progress',
  `select a.tenant_id, coalesce(sa.class_id, a.class_id) as class_id,
          (select count(*) from responses r
            where r.assessment_id = a.id and r.student_id = $2::uuid and btrim(r.answer) <> '')::int as answered,
          (select count(*) from questions q where q.assessment_id = a.id)::int as questions,
          (select min(r.created_at) from responses r where r.assessment_id = a.id and r.student_id = $2::uuid) as started_at
     from assessments a
     ${STUDENT_CLASS('$2::uuid')}
     cross join pg_advisory_xact_lock(hashtextextended('attempt-progress' || $2::text || $1::text, 0))
    where a.id = $1::uuid`,
);

/** The questions (in order) and the student's stored answers by question id. */
async function readQuestionsAndAnswers(on: pg.Pool | pg.PoolClient, assessmentId: string, studentId: string) {
  const rows = await answeredQuestions(on, assessmentId, studentId);
  const answers = new Map<string, string>();
  for (const r of rows) if (r.answer !== null) answers.set(r.id, r.answer);
  return { questions: rows.map(toQuestion), answers };
}
/**
 * THE rule of which attempt counts (`a` the assessment, `c` its results of one student, with id,
 * attempt and percentage): the first in this order. Latest: the highest attempt; best: the
 * highest percentage, a tie going to the later attempt. Every statement that sets `counted` uses it.
 */
const COUNTED_ORDER = `case when a.counted_attempt = 'best' then c.percentage end desc nulls last, c.attempt desc`;

/**
 * Stores the result as the student's next attempt ($1 id, $2 assessment, $5 student, $8
 * percentage) and, in the same statement, moves `counted` by the rule: the candidates are the
 * stored results and the new one. Nothing when the current attempt has a result already.
 */
const insertResultRow = prepared<ResultSqlRow>(
  'insert-result',
  `with mine as (select id, attempt, percentage, counted from results where assessment_id = $2::uuid and student_id = $5::uuid),
   next as (select coalesce(max(attempt), 0) + 1 as attempt from mine),
   winner as (
     select c.id from (select id, attempt, percentage from mine
                       union all select $1::uuid, (select attempt from next), $8::double precision) c,
            assessments a
      where a.id = $2::uuid
      order by ${COUNTED_ORDER} limit 1),
   inserted as (
     insert into results (id, assessment_id, tenant_id, class_id, student_id, total_points, earned_points,
                          percentage, performance_level, correct_answers, incorrect_answers, total_questions,
                          submitted_at, questions, pending_review, attempt, counted)
     values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15,
             (select attempt from next), coalesce((select id from winner) = $1::uuid, true))
     on conflict (assessment_id, student_id) where not superseded do nothing
     returning *),
   uncounted as (
     update results r set counted = false
      where r.assessment_id = $2::uuid and r.student_id = $5::uuid and r.counted
        and r.id <> $1::uuid and exists (select 1 from inserted) and (select id from winner) = $1::uuid)
   ${resultSelect('inserted')}`,
);
const studentAssessment = prepared<StudentAssessmentSqlRow>('student-assessment', STUDENT_ASSESSMENT_SQL);
const studentQuestions = prepared<StudentQuestionSqlRow>('student-questions', STUDENT_QUESTIONS_SQL);
const startAttemptRow = prepared(
  'start-attempt',
  `insert into attempt_starts (assessment_id, student_id, tenant_id) values ($1::uuid, $2::uuid, $3::uuid)
   on conflict (assessment_id, student_id) do nothing`,
);
const studentResponses = prepared<StudentResponseSqlRow>('student-responses', STUDENT_RESPONSES_SQL);

/**
 * Sets `counted` by the rule on the results of assessment $1 (of student $2 only, unless null)
 * and returns, per student whose counted result changed, the result that counts now.
 */
export const RECOUNT_SQL = `
  with ranked as (
    select c.id, c.counted,
           row_number() over (partition by c.student_id order by ${COUNTED_ORDER}) = 1 as should
      from results c join assessments a on a.id = c.assessment_id
     where c.assessment_id = $1::uuid and ($2::uuid is null or c.student_id = $2::uuid)),
  changed as (
    update results r set counted = ranked.should from ranked
     where r.id = ranked.id and r.counted <> ranked.should
     returning r.*)
  select id, assessment_id as "assessmentId", tenant_id as "tenantId", class_id as "classId", student_id as "studentId",
         earned_points as "earnedPoints", total_points as "totalPoints", percentage, performance_level as level,
         submitted_at as "submittedAt", attempt, coalesce(questions, '[]'::jsonb) as questions
    from changed where counted order by student_id`;
/** A result that counts now, with what its ResultSubmitted carried (the answers from its review). */
export interface CountedNow {
  id: string;
  assessmentId: string;
  tenantId: string;
  classId: string;
  studentId: string;
  earnedPoints: number;
  totalPoints: number;
  percentage: number;
  level: string;
  submittedAt: Date;
  attempt: number;
  questions: ResultQuestionRecord[];
}

/** A result a teacher acts on (retake, reopen), read under its student's submission lock. */
export interface ResultForTeacher {
  id: string;
  assessmentId: string;
  tenantId: string;
  classId: string;
  studentId: string;
  teacherId: string;
  attempt: number;
  superseded: boolean;
  counted: boolean;
  maxAttempts: number;
  /** The highest attempt with a result, and whether the current attempt has its result. */
  lastAttempt: number;
  currentSubmitted: boolean;
}

/** `pool` (the one under `db`) carries the hot path; `db` the student's lists and results. */
export function studentAttemptsRepository(db: Db, pool: pg.Pool) {
  return {
    /** Runs `fn` in one transaction on one pooled connection: commit when it resolves, rollback when it throws. */
    transaction: <T>(fn: (tx: AttemptTx) => Promise<T>): Promise<T> =>
      inTransaction(pool, (client) => fn({ ...sqlExecutor(client), client })),

    /** The student's access to the assessment, with what their view of it shows. */
    async forStudent(studentId: string, assessmentId: string) {
      const [r] = await studentAssessment(pool, assessmentId, studentId);
      if (!r) return undefined;
      const assessment: StudentAssessmentRow = {
        id: r.id,
        classId: r.class_id,
        title: r.title,
        description: r.description,
        dueDate: r.due_date,
        isActive: r.is_active,
        createdAt: r.created_at,
        className: r.class_name,
        subject: r.subject,
        questionCount: r.question_count,
      };
      return { assessment, access: toStudentAccess(r) };
    },

    /**
     * The student's access with the assessment's questions (one round trip: every student of a
     * class opens it at once). Undefined when there is no such assessment; the questions are
     * read whatever the access says, and the caller shows them only when it allows.
     */
    async questionsForStudent(studentId: string, assessmentId: string) {
      const rows = await studentQuestions(pool, assessmentId, studentId);
      if (!rows[0]) return undefined;
      const questions = rows
        .filter((r) => r.q_id !== null)
        .map((r) => toQuestion({ ...r, id: r.q_id!, assessment_id: r.q_assessment_id }));
      const { shuffle_questions: shuffleQuestions, shuffle_options: shuffleOptions } = rows[0];
      return { access: toStudentAccess(rows[0]), questions, shuffle: { shuffleQuestions, shuffleOptions } };
    },

    /** The student's access with their own answers, oldest first (one round trip, as above). */
    async responsesForStudent(studentId: string, assessmentId: string) {
      const rows = await studentResponses(pool, assessmentId, studentId);
      if (!rows[0]) return undefined;
      const responses = rows
        .filter((r) => r.r_id !== null)
        .map((r) => toResponse({ ...r, id: r.r_id!, assessment_id: assessmentId, student_id: studentId }));
      return { access: toStudentAccess(rows[0]), responses };
    },

    /** Starts the student's timed attempt now, unless it started before (the first read stands). */
    async startAttempt(studentId: string, assessmentId: string, tenantId: string): Promise<void> {
      await startAttemptRow(pool, assessmentId, studentId, tenantId);
    },

    /**
     * Attempts to submit for their students because the assessment's close time, or the attempt's
     * time limit, has passed: some
     * saved (non-blank) answer, no result, the student still a member of the live class, the assessment active
     * and assigned. Closed (or started) in the last 7 days only, so the look-up stays small; a later submit is
     * the student's own (still taken after the close).
     */
    async dueForClosing(limit: number): Promise<{ assessmentId: string; studentId: string }[]> {
      return db.$queryRawUnsafe(
        `select distinct r.assessment_id as "assessmentId", r.student_id as "studentId"
           from assessments a
           join responses r on r.assessment_id = a.id and btrim(r.answer) <> ''
           left join attempt_starts st on st.assessment_id = a.id and st.student_id = r.student_id
           ${ACCOMMODATIONS('r.student_id')}
          where ((a.closes_at <= now() and a.closes_at > now() - interval '7 days')
                 or (${DEADLINE} <= now() and st.started_at > now() - interval '7 days'))
            and a.is_active and a.assigned_at is not null
            and exists (${ASSIGNED_TO('r.student_id')})
            and not exists (select 1 from results x where x.assessment_id = a.id and x.student_id = r.student_id and not x.superseded)
          order by 1, 2
          limit $1`,
        limit,
      );
    },

    async availableFor(studentId: string): Promise<AssessmentRow[]> {
      const rows = await db.$queryRawUnsafe<AssessmentSqlRow[]>(
        `${assessmentSelect(`${STUDENT_CLASS('$1::uuid')} join classes c on c.class_id = sa.class_id`)}
          where a.is_active and a.assigned_at is not null
            and ${IN_WINDOW}
            and exists (select 1 from questions q where q.assessment_id = a.id)
            and not exists (select 1 from results r where r.assessment_id = a.id and r.student_id = $1::uuid and not r.superseded)
          order by a.assigned_at desc, a.id`,
        studentId,
      );
      return rows.map(toAssessment);
    },

    /**
     * Upserts one answer in one statement when the student may answer: member of a live class,
     * assessment active and assigned, question of that assessment, not yet submitted. A save with
     * a lower clientSeq than the stored one changes nothing (a late replay never wins). A refused
     * save reads what the use case needs to say why.
     */
    async saveResponse(
      studentId: string,
      input: { assessmentId: string; questionId: string; answer: string; clientSeq?: number | undefined },
    ): Promise<SaveOutcome> {
      const [row] = await upsertResponse(
        pool,
        randomUUID(),
        input.assessmentId,
        input.questionId,
        studentId,
        input.answer,
        input.clientSeq ?? null,
      );
      if (row) return { saved: toResponse(row), answeredChanged: row.was_answered !== (row.answer.trim() !== '') };
      const [accessRow] = await accessOf(pool, input.assessmentId, studentId);
      const access = accessRow ? toStudentAccess(accessRow) : undefined;
      const question = await db.question.findFirst({
        where: { id: input.questionId, assessmentId: input.assessmentId },
        select: { id: true },
      });
      if (access && question) {
        const stored = await db.$queryRawUnsafe<ResponseSqlRow[]>(
          `select id, assessment_id, question_id, student_id, answer, client_seq, updated_at
             from responses where question_id = $1::uuid and student_id = $2::uuid`,
          input.questionId,
          studentId,
        );
        if (stored[0]) return { refused: access, questionOk: true, stored: toResponse(stored[0]) };
      }
      return { refused: access, questionOk: question !== null };
    },

    /**
     * The attempt's counts, read under a per-attempt lock held to the end of `tx`, so two saves of
     * one attempt enqueue their counts in order. Undefined when the assessment is gone.
     */
    async attemptProgress(
      tx: AttemptTx,
      assessmentId: string,
      studentId: string,
    ): Promise<AttemptProgress | undefined> {
      const [p] = await attemptCounts(tx.client, assessmentId, studentId);
      return (
        p && {
          tenantId: p.tenant_id,
          classId: p.class_id,
          answeredCount: p.answered,
          questionCount: p.questions,
          startedAt: p.started_at,
        }
      );
    },

    /**
     * The student's access, taking the (student, assessment) submission lock for the rest of `tx`:
     * saves of this student and assessment wait until the result commits and are refused after it
     * (migrations/002_no_answer_after_submit.sql), so every acknowledged answer is counted by a
     * read made after this one.
     */
    async lockForSubmission(tx: AttemptTx, assessmentId: string, studentId: string) {
      const [row] = await lockedAccessOf(tx.client, assessmentId, studentId);
      return row ? toStudentAccess(row) : undefined;
    },

    /** The assessment's current questions (in order) and the student's stored answers by question id. */
    questionsAndAnswers: (assessmentId: string, studentId: string, tx?: AttemptTx) =>
      readQuestionsAndAnswers(tx?.client ?? pool, assessmentId, studentId),

    /**
     * Stores the result as the student's next attempt (counted or not by the rule) and returns
     * it; undefined when the current attempt has a result already (the unique key decides).
     */
    async insertResult(tx: AttemptTx, r: NewResult): Promise<ResultRow | undefined> {
      const [inserted] = await insertResultRow(
        tx.client,
        randomUUID(),
        r.assessmentId,
        r.tenantId,
        r.classId,
        r.studentId,
        r.score.totalPoints,
        r.score.earnedPoints,
        r.score.percentage,
        r.score.level,
        r.score.correctAnswers,
        r.score.incorrectAnswers,
        r.score.totalQuestions,
        r.submittedAt,
        JSON.stringify(r.questions),
        r.score.pendingReview,
      );
      return inserted && toResult(inserted);
    },

    /**
     * The result with what a retake or reopen decides on, after taking its student's submission
     * lock for the rest of `tx` (saves and submits of the attempt wait; two teachers' calls run
     * one after the other). Undefined when there is no such result.
     */
    async lockResultForTeacher(tx: AttemptTx, resultId: string): Promise<ResultForTeacher | undefined> {
      const { rows: locked } = await tx.client.query(
        `select pg_advisory_xact_lock(submission_lock_key(student_id, assessment_id)) from results where id = $1::uuid`,
        [resultId],
      );
      if (locked.length === 0) return undefined;
      const { rows } = await tx.client.query<ResultForTeacher>(
        `select r.id, r.assessment_id as "assessmentId", r.tenant_id as "tenantId", r.class_id as "classId",
                r.student_id as "studentId", a.teacher_id as "teacherId", r.attempt, r.superseded, r.counted,
                a.max_attempts as "maxAttempts",
                (select max(x.attempt) from results x
                  where x.assessment_id = r.assessment_id and x.student_id = r.student_id)::int as "lastAttempt",
                exists (select 1 from results x where x.assessment_id = r.assessment_id
                           and x.student_id = r.student_id and not x.superseded) as "currentSubmitted"
           from results r join assessments a on a.id = r.assessment_id
          where r.id = $1::uuid`,
        [resultId],
      );
      return rows[0];
    },

    /**
     * A retake: the result becomes an earlier attempt (kept, with its review) and the student's
     * answers and attempt start for the assessment are cleared, so the next attempt starts afresh.
     */
    async supersede(tx: AttemptTx, r: Pick<ResultForTeacher, 'id' | 'assessmentId' | 'studentId'>): Promise<void> {
      await tx.client.query(`update results set superseded = true where id = $1::uuid`, [r.id]);
      await tx.client.query(`delete from responses where assessment_id = $1::uuid and student_id = $2::uuid`, [
        r.assessmentId,
        r.studentId,
      ]);
      await tx.client.query(`delete from attempt_starts where assessment_id = $1::uuid and student_id = $2::uuid`, [
        r.assessmentId,
        r.studentId,
      ]);
    },

    /**
     * A reopening: the result is withdrawn (the answers it was scored from stay saved) and a timed
     * attempt's clock starts again at the next read of the questions.
     */
    async withdraw(tx: AttemptTx, r: Pick<ResultForTeacher, 'id' | 'assessmentId' | 'studentId'>): Promise<void> {
      await tx.client.query(`delete from results where id = $1::uuid`, [r.id]);
      await tx.client.query(`delete from attempt_starts where assessment_id = $1::uuid and student_id = $2::uuid`, [
        r.assessmentId,
        r.studentId,
      ]);
    },

    /** Sets `counted` by the rule for one student's results; the result that counts now, when it changed. */
    async recount(tx: AttemptTx, assessmentId: string, studentId: string): Promise<CountedNow[]> {
      const { rows } = await tx.client.query<CountedNow>(RECOUNT_SQL, [assessmentId, studentId]);
      return rows;
    },

    /** One result with the review written at submission (null for results older than it). */
    async findResult(id: string): Promise<(ResultRow & { questions: ResultQuestionRecord[] | null }) | undefined> {
      const [row] = await db.$queryRawUnsafe<ResultWithQuestionsSqlRow[]>(
        `${resultSelect('results', true)} where r.id = $1::uuid`,
        id,
      );
      return row ? { ...toResult(row), questions: row.questions } : undefined;
    },

    async resultsOf(studentId: string): Promise<ResultRow[]> {
      const rows = await db.$queryRawUnsafe<ResultSqlRow[]>(
        `${RESULT_SELECT} where r.student_id = $1::uuid order by r.submitted_at desc, r.id`,
        studentId,
      );
      return rows.map(toResult);
    },
  };
}
