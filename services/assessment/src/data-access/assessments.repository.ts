// Assessments, questions, responses and results. Teacher queries are scoped by tenant and owner
// (the local copy of the class says who owns it); student queries by membership and their own id.
// Each change writes its event to the outbox in the same transaction.
import { randomUUID } from 'node:crypto';
import type {
  AssessmentRow,
  GenerationStatus,
  Owner,
  QuestionRow,
  ResultQuestionRecord,
  ResultRow,
  StudentAccess,
  StudentAssessmentRow,
} from '../domain/assessment.ts';
import type { QuestionInput } from '../domain/questions.ts';
import type { PerformanceLevel, RaisedBy, Score } from '../domain/scoring.ts';
import type { AssessmentEvents, GenerationFacts } from '../messaging/assessment-events.publisher.ts';
import { sqlExecutor } from '@checkpoint/events';
import { inTransaction, uuidv7 } from '@checkpoint/service-kit';
import type pg from 'pg';
import type { Db, Tx } from './prisma.ts';

type Executor = Db | Tx;

const ASSESSMENT_SELECT = `
  select a.id, a.tenant_id, a.class_id, a.teacher_id, a.title, a.description, a.topic, a.standard,
         a.due_date, a.is_active, a.assigned_at, a.content_to_assess, a.question_type,
         a.number_of_questions, a.generation_status, a.generation_provider, a.generation_error,
         a.created_at, a.updated_at, c.name as class_name, c.subject,
         (select count(*) from questions q where q.assessment_id = a.id)::int as question_count,
         (select count(*) from results r where r.assessment_id = a.id)::int as response_count,
         (select count(*) from memberships m where m.class_id = a.class_id)::int as member_count
    from assessments a join classes c on c.class_id = a.class_id`;

interface AssessmentSqlRow {
  id: string;
  tenant_id: string;
  class_id: string;
  teacher_id: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  due_date: Date | null;
  is_active: boolean;
  assigned_at: Date | null;
  content_to_assess: string;
  question_type: string;
  number_of_questions: number;
  generation_status: GenerationStatus;
  generation_provider: string | null;
  generation_error: string | null;
  created_at: Date;
  updated_at: Date;
  class_name: string;
  subject: string;
  question_count: number;
  response_count: number;
  member_count: number;
}

const toAssessment = (r: AssessmentSqlRow): AssessmentRow => ({
  id: r.id,
  tenantId: r.tenant_id,
  classId: r.class_id,
  teacherId: r.teacher_id,
  title: r.title,
  description: r.description,
  topic: r.topic,
  standard: r.standard,
  dueDate: r.due_date,
  isActive: r.is_active,
  assignedAt: r.assigned_at,
  contentToAssess: r.content_to_assess,
  questionType: r.question_type,
  numberOfQuestions: r.number_of_questions,
  generationStatus: r.generation_status,
  generationProvider: r.generation_provider,
  generationError: r.generation_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  className: r.class_name,
  subject: r.subject,
  questionCount: r.question_count,
  responseCount: r.response_count,
  memberCount: r.member_count,
});

const OWNED = 'a.tenant_id = $1::uuid and a.teacher_id = $2::uuid and c.teacher_id = $2::uuid';

interface ResponseSqlRow {
  id: string;
  assessment_id: string;
  question_id: string;
  student_id: string;
  answer: string;
  client_seq: bigint | number | string | null;
  updated_at: Date;
  first_name?: string | null;
  last_name?: string | null;
}

export interface ResponseRecord {
  id: string;
  assessmentId: string;
  questionId: string;
  studentId: string;
  answer: string;
  clientSeq: number | null;
  updatedAt: string;
  student: { firstName: string | null; lastName: string | null };
}

const toResponse = (r: ResponseSqlRow): ResponseRecord => ({
  id: r.id,
  assessmentId: r.assessment_id,
  questionId: r.question_id,
  studentId: r.student_id,
  answer: r.answer,
  clientSeq: r.client_seq === null ? null : Number(r.client_seq),
  updatedAt: r.updated_at.toISOString(),
  student: { firstName: r.first_name ?? null, lastName: r.last_name ?? null },
});

/**
 * A result with what its views show; `source` is the results table or a CTE of new rows. Lists
 * leave out the per-question review (`withQuestions`), which only the single result shows.
 */
const resultSelect = (source = 'results', withQuestions = false) => `
  select r.id, r.assessment_id, r.student_id, r.class_id, r.tenant_id, r.total_points, r.earned_points,
         r.percentage, r.performance_level, r.original_level, r.raised_by, r.raised_attempt, r.correct_answers, r.incorrect_answers, r.total_questions,
         r.submitted_at, a.title, a.description, coalesce(c.name, '') as class_name, a.teacher_id,
         p.first_name, p.last_name${withQuestions ? ', r.questions' : ''}
    from ${source} r
    join assessments a on a.id = r.assessment_id
    left join classes c on c.class_id = r.class_id
    left join people p on p.user_id = r.student_id`;
const RESULT_SELECT = resultSelect();

interface ResultSqlRow {
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
  title: string;
  description: string;
  class_name: string;
  teacher_id: string;
  first_name: string | null;
  last_name: string | null;
}

/** The review written at submission (jsonb, read back as parsed JSON); null for older results. */
type ResultWithQuestionsSqlRow = ResultSqlRow & { questions: ResultQuestionRecord[] | null };

const toResult = (r: ResultSqlRow): ResultRow => ({
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
  title: r.title,
  description: r.description,
  className: r.class_name,
  teacherId: r.teacher_id,
  firstName: r.first_name,
  lastName: r.last_name,
});

export interface NewAssessment {
  classId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  dueDate: Date | null;
  generation: GenerationFacts;
}

export interface AssessmentDetails {
  title: string;
  description: string;
  topic: string;
  standard: string;
  /** Undefined keeps the stored due date (the spec's payload has none); null clears it. */
  dueDate?: Date | null | undefined;
}

/** Saved, or refused with what the use case needs to say why (or to see a stale replay). */
export type SaveOutcome =
  { saved: ResponseRecord } | { refused: StudentAccess | undefined; questionOk: boolean; stored?: ResponseRecord };

export type AssessmentsRepository = ReturnType<typeof assessmentsRepository>;

interface QuestionSqlRow {
  id: string;
  assessment_id: string;
  position: number;
  question_text: string;
  question_type: string;
  options: string[];
  correct_answer: string;
  accepted_answers: string[];
  points: number;
}

const toQuestion = (q: QuestionSqlRow): QuestionRow => ({
  id: q.id,
  assessmentId: q.assessment_id,
  position: q.position,
  questionText: q.question_text,
  questionType: q.question_type,
  options: q.options,
  correctAnswer: q.correct_answer,
  acceptedAnswers: q.accepted_answers,
  points: q.points,
});

const QUESTIONS_SQL = `
  select id, assessment_id, position, question_text, question_type, options, correct_answer,
         accepted_answers, points
    from questions where assessment_id = $1::uuid order by position, id`;

/**
 * What a student may do with an assessment ($1 assessment, $2 student). `lockSubmission` also
 * takes the (student, assessment) submission lock for the rest of the transaction (see submit).
 */
const studentAccessSql = (lockSubmission: boolean) => `
  select a.id, a.tenant_id, a.class_id, a.is_active, a.assigned_at is not null as assigned, c.archived,
         exists (select 1 from memberships m where m.class_id = a.class_id and m.student_id = $2::uuid) as member,
         (select r.id from results r where r.assessment_id = a.id and r.student_id = $2::uuid) as result_id
    from assessments a left join classes c on c.class_id = a.class_id
    ${lockSubmission ? 'cross join pg_advisory_xact_lock(submission_lock_key($2::uuid, $1::uuid))' : ''}
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
});

/** The student's access and what their view of the assessment shows, in one statement. */
const STUDENT_ASSESSMENT_SQL = `
  select s.*, a.title, a.description, a.due_date, a.created_at, c.name as class_name, c.subject,
         (select count(*) from questions q where q.assessment_id = a.id)::int as question_count
    from (${studentAccessSql(false)}) s
    join assessments a on a.id = s.id
    join classes c on c.class_id = a.class_id`;

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

export async function listQuestions(db: Executor, assessmentId: string): Promise<QuestionRow[]> {
  return (await db.$queryRawUnsafe<QuestionSqlRow[]>(QUESTIONS_SQL, assessmentId)).map(toQuestion);
}

/** Emits QuestionsChanged with the full current list (inside the caller's transaction). */
export async function announceQuestions(
  tx: Tx,
  events: AssessmentEvents,
  a: { id: string; tenantId: string; classId: string },
): Promise<void> {
  await events.questionsChanged(tx, a, await listQuestions(tx, a.id));
}

/** Appends questions after the current last one. */
export async function insertQuestions(
  tx: Tx,
  a: { id: string; tenantId: string },
  questions: QuestionInput[],
): Promise<void> {
  const last = await tx.question.aggregate({ where: { assessmentId: a.id }, _max: { position: true } });
  let position = (last._max.position ?? 0) + 1;
  await tx.question.createMany({
    data: questions.map((q) => ({
      id: randomUUID(),
      assessmentId: a.id,
      tenantId: a.tenantId,
      position: position++,
      questionText: q.questionText,
      questionType: q.questionType,
      options: q.options,
      correctAnswer: q.correctAnswer,
      acceptedAnswers: q.acceptedAnswers,
      points: q.points,
    })),
  });
}

/** Whether any student has submitted the assessment (then its scoring stays as it is). */
async function hasResults(tx: Tx, assessmentId: string): Promise<boolean> {
  return (await tx.result.count({ where: { assessmentId }, take: 1 })) > 0;
}

/** Numbers the questions 1..n in the given order (ids of the assessment's questions). */
async function renumber(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.$executeRawUnsafe(
    `update questions q set position = o.n
       from unnest($1::uuid[]) with ordinality as o(id, n) where q.id = o.id`,
    ids,
  );
}

/**
 * `pool` (the one under `db`) serves what a whole class does at once: opening the assessment,
 * saving answers every few seconds, submitting. Those calls run straight on pg with named prepared
 * statements, parsed and planned once per connection, without the ORM layer (bench/README.md);
 * the teachers' calls use Prisma.
 */
export function assessmentsRepository(db: Db, events: AssessmentEvents, pool: pg.Pool) {
  async function findOwned(ex: Executor, owner: Owner, id: string): Promise<AssessmentRow | undefined> {
    const rows = await ex.$queryRawUnsafe<AssessmentSqlRow[]>(
      `${ASSESSMENT_SELECT} where ${OWNED} and a.id = $3::uuid`,
      owner.tenantId,
      owner.teacherId,
      id,
    );
    return rows[0] ? toAssessment(rows[0]) : undefined;
  }

  /** The question if it belongs to one of the owner's assessments. */
  async function findOwnedQuestion(ex: Executor, owner: Owner, questionId: string) {
    const rows = await ex.$queryRawUnsafe<{ assessment_id: string }[]>(
      `select q.assessment_id from questions q
         join assessments a on a.id = q.assessment_id
         join classes c on c.class_id = a.class_id
        where ${OWNED} and q.id = $3::uuid`,
      owner.tenantId,
      owner.teacherId,
      questionId,
    );
    return rows[0] ? findOwned(ex, owner, rows[0].assessment_id) : undefined;
  }

  /** A statement every student runs: parsed and planned once per connection. */
  function prepared<Row extends pg.QueryResultRow>(name: string, text: string) {
    return async (on: pg.Pool | pg.PoolClient, ...values: unknown[]): Promise<Row[]> =>
      (await on.query<Row>({ name: `assessment.${name}`, text, values })).rows;
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
         join classes c on c.class_id = a.class_id and not c.archived
         join memberships m on m.class_id = a.class_id and m.student_id = $4::uuid
         join questions q on q.id = $3::uuid and q.assessment_id = a.id
        where a.id = $2::uuid and a.is_active and a.assigned_at is not null
          and not exists (select 1 from results r where r.assessment_id = a.id and r.student_id = $4::uuid)),
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
  const attemptProgress = prepared<{
    tenant_id: string;
    class_id: string;
    answered: number;
    questions: number;
    started_at: Date;
  }>(
    'attempt-progress',
    `select a.tenant_id, a.class_id,
            (select count(*) from responses r
              where r.assessment_id = a.id and r.student_id = $2::uuid and btrim(r.answer) <> '')::int as answered,
            (select count(*) from questions q where q.assessment_id = a.id)::int as questions,
            (select min(r.created_at) from responses r where r.assessment_id = a.id and r.student_id = $2::uuid) as started_at
       from assessments a
       cross join pg_advisory_xact_lock(hashtextextended('attempt-progress' || $2::text || $1::text, 0))
      where a.id = $1::uuid`,
  );

  /** The questions (in order) and the student's stored answers by question id. */
  async function questionsAndAnswers(on: pg.Pool | pg.PoolClient, assessmentId: string, studentId: string) {
    const rows = await answeredQuestions(on, assessmentId, studentId);
    const answers = new Map<string, string>();
    for (const r of rows) if (r.answer !== null) answers.set(r.id, r.answer);
    return { questions: rows.map(toQuestion), answers };
  }
  const insertResult = prepared<ResultSqlRow>(
    'insert-result',
    `with inserted as (
       insert into results (id, assessment_id, tenant_id, class_id, student_id, total_points, earned_points,
                            percentage, performance_level, correct_answers, incorrect_answers, total_questions,
                            submitted_at, questions)
       values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb)
       on conflict (assessment_id, student_id) do nothing
       returning *)
     ${resultSelect('inserted')}`,
  );
  const studentAssessment = prepared<StudentAssessmentSqlRow>('student-assessment', STUDENT_ASSESSMENT_SQL);
  const questionsOf = prepared<QuestionSqlRow>('questions', QUESTIONS_SQL);
  const studentQuestions = prepared<StudentQuestionSqlRow>('student-questions', STUDENT_QUESTIONS_SQL);
  const studentResponses = prepared<StudentResponseSqlRow>('student-responses', STUDENT_RESPONSES_SQL);

  return {
    listForTeacher: async (owner: Owner, classId?: string): Promise<AssessmentRow[]> => {
      const rows = await db.$queryRawUnsafe<AssessmentSqlRow[]>(
        `${ASSESSMENT_SELECT} where ${OWNED} ${classId ? 'and a.class_id = $3::uuid' : ''}
          order by a.created_at desc, a.id`,
        owner.tenantId,
        owner.teacherId,
        ...(classId ? [classId] : []),
      );
      return rows.map(toAssessment);
    },

    findOwned: (owner: Owner, id: string) => findOwned(db, owner, id),

    /** The class if it is the caller's and not deleted (archived classes still count). */
    async ownsClass(owner: Owner, classId: string): Promise<boolean> {
      const c = await db.classRef.findFirst({
        where: { classId, tenantId: owner.tenantId, teacherId: owner.teacherId },
        select: { classId: true },
      });
      return c !== null;
    },

    async create(owner: Owner, input: NewAssessment): Promise<AssessmentRow | undefined> {
      return db.$transaction(async (tx) => {
        const cls = await tx.classRef.findFirst({
          where: { classId: input.classId, tenantId: owner.tenantId, teacherId: owner.teacherId },
        });
        if (!cls) return undefined;
        // Time-ordered: a service whose copy misses it a moment later knows to wait (read-after-create.ts).
        const id = uuidv7();
        const now = new Date();
        await tx.assessment.create({
          data: {
            id,
            tenantId: owner.tenantId,
            classId: input.classId,
            teacherId: owner.teacherId,
            title: input.title,
            description: input.description,
            topic: input.topic,
            standard: input.standard,
            dueDate: input.dueDate,
            isActive: true,
            contentToAssess: input.generation.contentToAssess,
            questionType: input.generation.questionType,
            numberOfQuestions: input.generation.numberOfQuestions,
            generationStatus: 'generating',
            createdAt: now,
            updatedAt: now,
          },
        });
        await events.created(
          tx,
          { ...input, id, tenantId: owner.tenantId, teacherId: owner.teacherId, isActive: true },
          input.generation,
        );
        return findOwned(tx, owner, id);
      });
    },

    async updateDetails(owner: Owner, id: string, details: AssessmentDetails, isActive?: boolean) {
      return db.$transaction(async (tx) => {
        const current = await findOwned(tx, owner, id);
        if (!current) return undefined;
        const dueDate = details.dueDate === undefined ? current.dueDate : details.dueDate;
        await tx.assessment.update({
          where: { id },
          data: { ...details, dueDate, ...(isActive === undefined ? {} : { isActive }), updatedAt: new Date() },
        });
        await events.updated(tx, { ...current, ...details, dueDate });
        if (isActive !== undefined && isActive !== current.isActive)
          await events.activationChanged(tx, current, isActive);
        return findOwned(tx, owner, id);
      });
    },

    async setActive(owner: Owner, id: string, isActive: boolean) {
      return db.$transaction(async (tx) => {
        const current = await findOwned(tx, owner, id);
        if (!current) return undefined;
        if (current.isActive !== isActive) {
          await tx.assessment.update({ where: { id }, data: { isActive, updatedAt: new Date() } });
          await events.activationChanged(tx, current, isActive);
        }
        return findOwned(tx, owner, id);
      });
    },

    /** Assigns to the whole class (later joiners included); the first call emits the event. */
    async assign(owner: Owner, id: string): Promise<AssessmentRow | 'no-questions' | undefined> {
      return db.$transaction(async (tx) => {
        const current = await findOwned(tx, owner, id);
        if (!current) return undefined;
        if (!current.assignedAt) {
          // Serialised with question edits (addQuestion locks the same row): students are never
          // given an assessment without a question to answer.
          await tx.$executeRawUnsafe('select 1 from assessments where id = $1::uuid for update', id);
          if ((await tx.question.count({ where: { assessmentId: id } })) === 0) return 'no-questions' as const;
          await tx.assessment.update({ where: { id }, data: { assignedAt: new Date(), updatedAt: new Date() } });
          await events.assigned(tx, current);
        }
        return findOwned(tx, owner, id);
      });
    },

    async delete(owner: Owner, id: string): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const current = await findOwned(tx, owner, id);
        if (!current) return false;
        // Questions, responses and results go with it (on delete cascade).
        await tx.assessment.delete({ where: { id } });
        await events.deleted(tx, current);
        return true;
      });
    },

    listQuestions: async (assessmentId: string) => (await questionsOf(pool, assessmentId)).map(toQuestion),

    async addQuestion(owner: Owner, assessmentId: string, q: QuestionInput, max: number) {
      return db.$transaction(async (tx) => {
        const a = await findOwned(tx, owner, assessmentId);
        if (!a) return 'not-found' as const;
        // Serialises concurrent additions to one assessment so the limit holds.
        await tx.$executeRawUnsafe('select 1 from assessments where id = $1::uuid for update', a.id);
        if (await hasResults(tx, assessmentId)) return 'has-submissions' as const;
        const count = await tx.question.count({ where: { assessmentId } });
        if (count >= max) return 'full' as const;
        await insertQuestions(tx, a, [q]);
        await announceQuestions(tx, events, a);
        const all = await listQuestions(tx, assessmentId);
        return all[all.length - 1]!;
      });
    },

    /** A copy of the question right after it (the ones below move down one). */
    async duplicateQuestion(owner: Owner, questionId: string, max: number) {
      return db.$transaction(async (tx) => {
        const a = await findOwnedQuestion(tx, owner, questionId);
        if (!a) return 'not-found' as const;
        await tx.$executeRawUnsafe('select 1 from assessments where id = $1::uuid for update', a.id);
        if (await hasResults(tx, a.id)) return 'has-submissions' as const;
        const all = await listQuestions(tx, a.id);
        const at = all.findIndex((x) => x.id === questionId);
        if (at < 0) return 'not-found' as const;
        if (all.length >= max) return 'full' as const;
        const source = all[at]!;
        const id = randomUUID();
        await tx.question.create({
          data: {
            id,
            assessmentId: a.id,
            tenantId: a.tenantId,
            position: source.position,
            questionText: source.questionText,
            questionType: source.questionType,
            options: source.options,
            correctAnswer: source.correctAnswer,
            acceptedAnswers: source.acceptedAnswers,
            points: source.points,
          },
        });
        await renumber(tx, [...all.slice(0, at + 1).map((x) => x.id), id, ...all.slice(at + 1).map((x) => x.id)]);
        await announceQuestions(tx, events, a);
        return (await listQuestions(tx, a.id)).find((x) => x.id === id)!;
      });
    },

    /**
     * Puts the questions in the given order; 'mismatch' unless the ids are exactly the
     * assessment's questions, each once (a list read before another edit is refused, not guessed).
     */
    async reorderQuestions(owner: Owner, assessmentId: string, questionIds: string[]) {
      return db.$transaction(async (tx) => {
        const a = await findOwned(tx, owner, assessmentId);
        if (!a) return 'not-found' as const;
        await tx.$executeRawUnsafe('select 1 from assessments where id = $1::uuid for update', a.id);
        const current = new Set((await listQuestions(tx, a.id)).map((x) => x.id));
        const given = new Set(questionIds);
        if (
          given.size !== questionIds.length ||
          given.size !== current.size ||
          ![...given].every((id) => current.has(id))
        )
          return 'mismatch' as const;
        await renumber(tx, questionIds);
        await announceQuestions(tx, events, a);
        return listQuestions(tx, a.id);
      });
    },

    /** `edit` turns the stored question into the new one (fields the teacher left out stay). */
    async updateQuestion(
      owner: Owner,
      questionId: string,
      edit: (current: QuestionRow, submitted: boolean) => QuestionInput,
    ): Promise<QuestionRow | undefined> {
      return db.$transaction(async (tx) => {
        const a = await findOwnedQuestion(tx, owner, questionId);
        if (!a) return undefined;
        // Locked: two edits of one question each keep what the other did not send.
        await tx.$executeRawUnsafe('select 1 from questions where id = $1::uuid for update', questionId);
        const current = (await listQuestions(tx, a.id)).find((x) => x.id === questionId);
        if (!current) return undefined;
        const q = edit(current, await hasResults(tx, a.id));
        await tx.question.update({
          where: { id: questionId },
          data: {
            questionText: q.questionText,
            questionType: q.questionType,
            options: q.options,
            correctAnswer: q.correctAnswer,
            acceptedAnswers: q.acceptedAnswers,
            points: q.points,
          },
        });
        await announceQuestions(tx, events, a);
        return (await listQuestions(tx, a.id)).find((x) => x.id === questionId);
      });
    },

    async deleteQuestion(owner: Owner, questionId: string) {
      return db.$transaction(async (tx) => {
        const a = await findOwnedQuestion(tx, owner, questionId);
        if (!a) return 'not-found' as const;
        await tx.$executeRawUnsafe('select 1 from assessments where id = $1::uuid for update', a.id);
        if (await hasResults(tx, a.id)) return 'has-submissions' as const;
        await tx.question.delete({ where: { id: questionId } });
        await announceQuestions(tx, events, a);
        return 'deleted' as const;
      });
    },

    async responsesForTeacher(assessmentId: string): Promise<ResponseRecord[]> {
      const rows = await db.$queryRawUnsafe<ResponseSqlRow[]>(
        `select r.id, r.assessment_id, r.question_id, r.student_id, r.answer, r.client_seq, r.updated_at,
                p.first_name, p.last_name
           from responses r left join people p on p.user_id = r.student_id
          where r.assessment_id = $1::uuid
          order by r.student_id, r.updated_at, r.id`,
        assessmentId,
      );
      return rows.map(toResponse);
    },

    // ---- students ----

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
      return { access: toStudentAccess(rows[0]), questions };
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

    async availableFor(studentId: string): Promise<AssessmentRow[]> {
      const rows = await db.$queryRawUnsafe<AssessmentSqlRow[]>(
        `${ASSESSMENT_SELECT}
           join memberships mm on mm.class_id = a.class_id and mm.student_id = $1::uuid
          where a.is_active and a.assigned_at is not null and not c.archived
            and exists (select 1 from questions q where q.assessment_id = a.id)
            and not exists (select 1 from results r where r.assessment_id = a.id and r.student_id = $1::uuid)
          order by a.assigned_at desc, a.id`,
        studentId,
      );
      return rows.map(toAssessment);
    },

    /**
     * Upserts one answer in one statement when the student may answer: member of a live class,
     * assessment active and assigned, question of that assessment, not yet submitted. A save with
     * a lower clientSeq than the stored one changes nothing (a late replay never wins).
     */
    async saveResponse(
      studentId: string,
      input: { assessmentId: string; questionId: string; answer: string; clientSeq?: number | undefined },
    ): Promise<SaveOutcome> {
      const seq = input.clientSeq ?? null;
      // The answer in one statement, as every save is; only a save that changes how many questions
      // are answered (the first answer to a question, or one cleared) then writes AttemptProgressed
      // (the teacher's live progress) in a short transaction of its own. Edits of an answered
      // question, most saves, cost nothing more, and an attempt sends at most one event per change
      // of its count. The event carries the absolute count, so if the process stops between the two
      // the next change (or the result) makes it good.
      const rows = await upsertResponse(
        pool,
        randomUUID(),
        input.assessmentId,
        input.questionId,
        studentId,
        input.answer,
        seq,
      );
      const row = rows[0];
      if (row && row.was_answered !== (row.answer.trim() !== '')) {
        await inTransaction(pool, async (client) => {
          // Taken in turn per attempt: the counts reach the outbox in the order they were read.
          const [p] = await attemptProgress(client, input.assessmentId, studentId);
          if (p)
            await events.attemptProgressed(sqlExecutor(client), {
              assessmentId: input.assessmentId,
              tenantId: p.tenant_id,
              classId: p.class_id,
              studentId,
              answeredCount: p.answered,
              questionCount: p.questions,
              startedAt: p.started_at,
            });
        });
      }
      if (rows[0]) return { saved: toResponse(rows[0]) };
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
     * Scores and stores the student's result in one transaction and returns it; undefined when a
     * result already exists (the unique key decides under concurrency). `check` runs on the access
     * read inside. Four prepared statements: access (taking the submission lock), questions with
     * the student's answers, the result, its event.
     */
    async submit(
      studentId: string,
      assessmentId: string,
      check: (access: StudentAccess | undefined) => void,
      score: (
        questions: QuestionRow[],
        answers: Map<string, string>,
      ) => { score: Score; questions: ResultQuestionRecord[] },
    ): Promise<(ResultRow & { questions: ResultQuestionRecord[] }) | undefined> {
      return inTransaction(pool, async (client) => {
        // Saves of this student and assessment wait until the result commits and are refused
        // after it (migrations/002_no_answer_after_submit.sql), so every acknowledged answer is
        // counted. The answers are read by a later statement, after the lock is held.
        const [accessRow] = await lockedAccessOf(client, assessmentId, studentId);
        const access = accessRow ? toStudentAccess(accessRow) : undefined;
        check(access);
        const a = access!;
        const { questions, answers } = await questionsAndAnswers(client, assessmentId, studentId);
        const { score: s, questions: review } = score(questions, answers);
        const submittedAt = new Date();
        const [inserted] = await insertResult(
          client,
          randomUUID(),
          assessmentId,
          a.tenantId,
          a.classId,
          studentId,
          s.totalPoints,
          s.earnedPoints,
          s.percentage,
          s.level,
          s.correctAnswers,
          s.incorrectAnswers,
          s.totalQuestions,
          submittedAt,
          JSON.stringify(review),
        );
        if (!inserted) return undefined;
        const result = { ...toResult(inserted), questions: review };
        await events.resultSubmitted(sqlExecutor(client), {
          id: result.id,
          assessmentId,
          tenantId: a.tenantId,
          classId: a.classId,
          studentId,
          earnedPoints: s.earnedPoints,
          totalPoints: s.totalPoints,
          percentage: s.percentage,
          level: s.level,
          submittedAt,
          answers: s.answers,
        });
        return result;
      });
    },

    /** One result with the review written at submission (null for results older than it). */
    async findResult(id: string): Promise<(ResultRow & { questions: ResultQuestionRecord[] | null }) | undefined> {
      const [row] = await db.$queryRawUnsafe<ResultWithQuestionsSqlRow[]>(
        `${resultSelect('results', true)} where r.id = $1::uuid`,
        id,
      );
      return row ? { ...toResult(row), questions: row.questions } : undefined;
    },

    /** The assessment's current questions and the student's stored answers. */
    questionsAndAnswers: (assessmentId: string, studentId: string) =>
      questionsAndAnswers(pool, assessmentId, studentId),

    async resultsOf(studentId: string): Promise<ResultRow[]> {
      const rows = await db.$queryRawUnsafe<ResultSqlRow[]>(
        `${RESULT_SELECT} where r.student_id = $1::uuid order by r.submitted_at desc, r.id`,
        studentId,
      );
      return rows.map(toResult);
    },
  };
}
