// What teachers do with their assessments and questions, on Prisma. Queries are scoped by tenant
// and owner (the local copy of the class says who owns it). No rule is decided here and no event
// written: the use case (domain/assessments.use-case.ts) opens the transaction (`transaction`),
// reads and writes through these calls, decides, and adds the event in that transaction.
import { randomUUID } from 'node:crypto';
import type { AssessmentRow, CountedAttempt, Owner, QuestionRow } from '../domain/assessment.ts';
import { RECOUNT_SQL, type CountedNow } from './student-attempts.repository.ts';
import type { QuestionInput } from '../domain/questions.ts';
import { uuidv7 } from '@checkpoint/service-kit';
import type pg from 'pg';
import type { StandardRef } from '../domain/standards.ts';
import type { ShuffleSettings } from '../domain/shuffle.ts';
import {
  prepared,
  QUESTIONS_SQL,
  toAssessment,
  toQuestion,
  toResponse,
  type AssessmentSqlRow,
  type QuestionSqlRow,
  type ResponseRecord,
  type ResponseSqlRow,
  TEACHER_ASSESSMENT_SELECT,
} from './assessment-rows.ts';
import type { Db, Tx } from './prisma.ts';

type Executor = Db | Tx;

/**
 * The caller ($1 tenant, $2 user) teaches the assessment's class `c`: owns it (its tenant, its
 * teacher) or co-teaches it (one of its co_teacher_ids: a user id names one person in every
 * tenant, and an individual account's co-teacher has a tenant of their own). Whoever of them
 * created the assessment, every teacher of the class manages it.
 */
const OWNED =
  '((a.tenant_id = $1::uuid and c.tenant_id = $1::uuid and c.teacher_id = $2::uuid) or $2::uuid = any(c.co_teacher_ids))';

/** The classes `owner` teaches (Prisma): owns, or co-teaches. */
const taughtBy = (owner: Owner) => ({
  OR: [{ tenantId: owner.tenantId, teacherId: owner.teacherId }, { coTeacherIds: { has: owner.teacherId } }],
});
/** The caller ($1 tenant, $2 user) teaches the class `alias`: owns it, or co-teaches it. */
const TEACHES = (alias: string) =>
  `((${alias}.tenant_id = $1::uuid and ${alias}.teacher_id = $2::uuid) or $2::uuid = any(${alias}.co_teacher_ids))`;
/**
 * A class's list ($3, a class the caller teaches): the assessments of the class and those assigned
 * to it from another class, whoever of its teachers owns that one (an owner's assessment given to
 * the class is on a co-teacher's list too).
 */
const OF_TAUGHT_CLASS = `a.id in (select id from assessments where class_id = $3::uuid
              union select assessment_id from assessment_assignments where class_id = $3::uuid)
  and (${OWNED} or exists (select 1 from classes t where t.class_id = $3::uuid and ${TEACHES('t')}))`;
/**
 * Who reads an assessment: a teacher of its class (OWNED), or of a class it is assigned to (a
 * co-teacher of that class reads it, its questions and their students' answers; changing it stays
 * with the teachers of its own class).
 */
const READABLE = `(${OWNED} or exists (
  select 1 from assessment_assignments x join classes xc on xc.class_id = x.class_id
   where x.assessment_id = a.id and ${TEACHES('xc')}))`;
/**
 * TEACHER_ASSESSMENT_SELECT with `manages`: whether the caller teaches the assessment's own class
 * (may change it; the read model's `canEdit`). Every teacher read selects it.
 */
const TEACHER_SELECT = TEACHER_ASSESSMENT_SELECT.replace(
  /\n\s*from assessments a /,
  `, ${OWNED} as manages
    from assessments a `,
);

export interface NewAssessment {
  classId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  dueDate: Date | null;
  /** What the generation job is asked for. */
  generation: { contentToAssess: string; questionType: string; numberOfQuestions: number };
}

export interface AssessmentDetails {
  title: string;
  description: string;
  topic: string;
  standard: string;
  dueDate: Date | null;
}

export type TeacherAssessmentsRepository = ReturnType<typeof teacherAssessmentsRepository>;

/** A teacher's transaction (`transaction`): the calls below that take it run in it, and so does an outbox row written through it. */
export type TeacherTx = Tx;

const questionsOf = prepared<QuestionSqlRow>('questions', QUESTIONS_SQL);

export async function listQuestions(db: Executor, assessmentId: string): Promise<QuestionRow[]> {
  return (await db.$queryRawUnsafe<QuestionSqlRow[]>(QUESTIONS_SQL, assessmentId)).map(toQuestion);
}

/** What a question says and how it is scored: the columns a teacher's edit writes. */
const questionFields = (q: QuestionInput | QuestionRow) => ({
  questionText: q.questionText,
  questionType: q.questionType,
  options: q.options,
  correctAnswer: q.correctAnswer,
  acceptedAnswers: q.acceptedAnswers,
  points: q.points,
});

/** Appends questions after the current last one. */
export async function insertQuestions(
  tx: Tx,
  a: { id: string; tenantId: string },
  questions: (QuestionInput & { standards?: readonly StandardRef[] })[],
): Promise<void> {
  const last = await tx.question.aggregate({ where: { assessmentId: a.id }, _max: { position: true } });
  let position = (last._max.position ?? 0) + 1;
  const rows = questions.map((q) => ({ id: randomUUID(), standards: q.standards ?? [], q }));
  await tx.question.createMany({
    data: rows.map(({ id, q }) => ({
      id,
      assessmentId: a.id,
      tenantId: a.tenantId,
      position: position++,
      ...questionFields(q),
    })),
  });
  for (const { id, standards } of rows)
    if (standards.length) await setQuestionStandards(tx, { id, tenantId: a.tenantId }, standards);
}

/**
 * The catalogue's items with these identifiers that `tenantId` may align to: of its own frameworks
 * or a platform one (tenant null), not withdrawn. An identifier in both gives the district's own.
 */
export async function resolveStandards(
  ex: Executor,
  tenantId: string,
  identifiers: readonly string[],
): Promise<Map<string, StandardRef>> {
  if (identifiers.length === 0) return new Map();
  const rows = await ex.$queryRawUnsafe<
    { identifier: string; code: string; uri: string; statement: string; framework_id: string }[]
  >(
    `select distinct on (i.identifier) i.identifier, i.code, i.uri, i.statement, i.framework_id
       from standard_items i
      where i.identifier = any($2::text[]) and (i.tenant_id = $1::uuid or i.tenant_id is null)
        and i.withdrawn_at is null
      order by i.identifier, i.tenant_id nulls last, i.updated_at desc`,
    tenantId,
    [...identifiers],
  );
  return new Map(
    rows.map((r) => [
      r.identifier,
      { identifier: r.identifier, code: r.code, uri: r.uri, statement: r.statement, frameworkId: r.framework_id },
    ]),
  );
}

/** The standards chosen for an assessment, in order (with their statements). */
export async function assessmentStandards(ex: Executor, assessmentId: string): Promise<StandardRef[]> {
  const rows = await ex.assessmentStandard.findMany({ where: { assessmentId }, orderBy: { position: 'asc' } });
  return rows.map((r) => ({
    identifier: r.identifier,
    code: r.code,
    uri: r.uri,
    statement: r.statement,
    frameworkId: r.frameworkId,
  }));
}

/** Replaces the question's alignment with copies of `standards`. */
export async function setQuestionStandards(
  tx: Tx,
  q: { id: string; tenantId: string },
  standards: readonly StandardRef[],
): Promise<void> {
  await tx.questionStandard.deleteMany({ where: { questionId: q.id } });
  if (standards.length === 0) return;
  await tx.questionStandard.createMany({
    data: standards.map((s) => ({
      questionId: q.id,
      tenantId: q.tenantId,
      identifier: s.identifier,
      code: s.code,
      uri: s.uri,
      frameworkId: s.frameworkId,
    })),
  });
}

/** Whether any student has submitted the assessment (then its scoring stays as it is). */
export async function hasResults(tx: Tx, assessmentId: string): Promise<boolean> {
  return (await tx.result.count({ where: { assessmentId }, take: 1 })) > 0;
}

/** Numbers the questions 1..n in the given order (ids of the assessment's questions). */
export async function renumber(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.$executeRawUnsafe(
    `update questions q set position = o.n
       from unnest($1::uuid[]) with ordinality as o(id, n) where q.id = o.id`,
    ids,
  );
}

/** `pool` (the one under `db`) serves the question list, a named statement as the students' are. */
export function teacherAssessmentsRepository(db: Db, pool: pg.Pool) {
  async function findOwned(owner: Owner, id: string, ex: Executor = db): Promise<AssessmentRow | undefined> {
    const rows = await ex.$queryRawUnsafe<AssessmentSqlRow[]>(
      `${TEACHER_SELECT} where ${OWNED} and a.id = $3::uuid`,
      owner.tenantId,
      owner.teacherId,
      id,
    );
    return rows[0] ? toAssessment(rows[0]) : undefined;
  }

  return {
    /** Runs `fn` in one Prisma interactive transaction: commit when it resolves, rollback when it throws. */
    transaction: <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => db.$transaction(fn),

    listForTeacher: async (owner: Owner, classId?: string): Promise<AssessmentRow[]> => {
      const rows = await db.$queryRawUnsafe<AssessmentSqlRow[]>(
        `${TEACHER_SELECT} where ${classId ? OF_TAUGHT_CLASS : OWNED}
          order by a.created_at desc, a.id`,
        owner.tenantId,
        owner.teacherId,
        ...(classId ? [classId] : []),
      );
      return rows.map(toAssessment);
    },

    /** The assessment if it is one of the owner's, with its counts. */
    findOwned,

    /**
     * The assessment if the caller reads it (READABLE), with whether they manage it (teach its own
     * class); undefined otherwise.
     */
    async findReadable(owner: Owner, id: string): Promise<{ row: AssessmentRow; manages: boolean } | undefined> {
      const rows = await db.$queryRawUnsafe<(AssessmentSqlRow & { manages: boolean })[]>(
        `${TEACHER_SELECT} where ${READABLE} and a.id = $3::uuid`,
        owner.tenantId,
        owner.teacherId,
        id,
      );
      const row = rows[0];
      return row ? { row: toAssessment(row), manages: row.manages } : undefined;
    },

    /** The assessment of the question if it is one of the owner's. */
    async findOwnedQuestion(owner: Owner, questionId: string, tx: Tx) {
      const rows = await tx.$queryRawUnsafe<{ assessment_id: string }[]>(
        `select q.assessment_id from questions q
           join assessments a on a.id = q.assessment_id
           join classes c on c.class_id = a.class_id
          where ${OWNED} and q.id = $3::uuid`,
        owner.tenantId,
        owner.teacherId,
        questionId,
      );
      return rows[0] ? findOwned(owner, rows[0].assessment_id, tx) : undefined;
    },

    /** Whether the caller teaches the class (owns or co-teaches it; archived classes still count). */
    async ownsClass(owner: Owner, classId: string, ex: Executor = db): Promise<boolean> {
      const c = await ex.classRef.findFirst({ where: { classId, ...taughtBy(owner) }, select: { classId: true } });
      return c !== null;
    },

    /**
     * The tenant of a class the caller teaches (what its new assessments belong to: the owner's,
     * also when a co-teacher of another tenant creates one), or undefined.
     */
    async taughtClassTenant(owner: Owner, classId: string, ex: Executor = db): Promise<string | undefined> {
      const c = await ex.classRef.findFirst({ where: { classId, ...taughtBy(owner) }, select: { tenantId: true } });
      return c?.tenantId;
    },

    resolveStandards,
    assessmentStandards,
    setQuestionStandards,

    /** Copies of the chosen standards, in the order given. */
    async insertAssessmentStandards(
      tx: Tx,
      a: { id: string; tenantId: string },
      standards: readonly StandardRef[],
    ): Promise<void> {
      if (standards.length === 0) return;
      await tx.assessmentStandard.createMany({
        data: standards.map((s, i) => ({
          assessmentId: a.id,
          tenantId: a.tenantId,
          position: i + 1,
          identifier: s.identifier,
          code: s.code,
          uri: s.uri,
          statement: s.statement,
          frameworkId: s.frameworkId,
        })),
      });
    },

    /**
     * Stores a new assessment, active and generating (`ready`: a copy, whose questions come with
     * it); returns its id.
     */
    async insert(tx: Tx, owner: Owner, input: NewAssessment, { ready = false } = {}): Promise<string> {
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
          generationStatus: ready ? 'ready' : 'generating',
          createdAt: now,
          updatedAt: now,
        },
      });
      return id;
    },

    /** Writes the details (and the activation when given). */
    async updateDetails(tx: Tx, id: string, details: AssessmentDetails, isActive?: boolean): Promise<void> {
      await tx.assessment.update({
        where: { id },
        data: { ...details, ...(isActive === undefined ? {} : { isActive }), updatedAt: new Date() },
      });
    },

    async setActive(tx: Tx, id: string, isActive: boolean): Promise<void> {
      await tx.assessment.update({ where: { id }, data: { isActive, updatedAt: new Date() } });
    },

    /** Its way of being given (order, window, time limit) taken from another assessment. */
    async copyDelivery(tx: Tx, fromId: string, toId: string): Promise<void> {
      await tx.$executeRawUnsafe(
        `update assessments t set shuffle_questions = f.shuffle_questions, shuffle_options = f.shuffle_options,
                opens_at = f.opens_at, closes_at = f.closes_at, time_limit_seconds = f.time_limit_seconds,
                max_attempts = f.max_attempts, counted_attempt = f.counted_attempt
           from assessments f where f.id = $1::uuid and t.id = $2::uuid`,
        fromId,
        toId,
      );
    },

    /** How students are given it: their order, its window. */
    /** How many attempts it allows and which counts; then `counted` by the rule for every student (the ones that changed). */
    async setAttempts(
      tx: Tx,
      id: string,
      attempts: { maxAttempts: number; countedAttempt: CountedAttempt },
    ): Promise<CountedNow[]> {
      await tx.assessment.update({ where: { id }, data: { ...attempts, updatedAt: new Date() } });
      return tx.$queryRawUnsafe<CountedNow[]>(RECOUNT_SQL, id, null);
    },

    async setDelivery(
      tx: Tx,
      id: string,
      delivery: ShuffleSettings & { opensAt: Date | null; closesAt: Date | null; timeLimitSeconds: number | null },
    ): Promise<void> {
      await tx.assessment.update({ where: { id }, data: { ...delivery, updatedAt: new Date() } });
    },

    /** Whether short answers off the key wait for the teacher's review (migrations/020). */
    async setReviewShortAnswers(tx: Tx, id: string, reviewShortAnswers: boolean): Promise<void> {
      await tx.assessment.update({ where: { id }, data: { reviewShortAnswers, updatedAt: new Date() } });
    },

    /** Of these classes, those the caller teaches (owns or co-teaches), with whether each is archived. */
    async ownedClasses(
      tx: Tx,
      owner: Owner,
      classIds: readonly string[],
    ): Promise<Map<string, { archived: boolean; tenantId: string }>> {
      const rows = await tx.classRef.findMany({
        where: { classId: { in: [...classIds] }, ...taughtBy(owner) },
        select: { classId: true, archived: true, tenantId: true },
      });
      return new Map(rows.map((r) => [r.classId, { archived: r.archived, tenantId: r.tenantId }]));
    },

    /** The students of these classes, by class. */
    async membersOf(tx: Tx, classIds: readonly string[]): Promise<Map<string, Set<string>>> {
      const rows = await tx.membership.findMany({
        where: { classId: { in: [...classIds] } },
        select: { classId: true, studentId: true },
      });
      const members = new Map<string, Set<string>>();
      for (const r of rows) members.set(r.classId, (members.get(r.classId) ?? new Set()).add(r.studentId));
      return members;
    },

    /** Whom the assessment is given to, per class. */
    async assignmentsOf(
      tx: Tx,
      assessmentId: string,
    ): Promise<Map<string, { wholeClass: boolean; studentIds: string[] }>> {
      const rows = await tx.assignment.findMany({
        where: { assessmentId },
        select: { classId: true, wholeClass: true, studentIds: true },
      });
      return new Map(rows.map((r) => [r.classId, { wholeClass: r.wholeClass, studentIds: r.studentIds }]));
    },

    /** Gives the assessment to a class, wholly or to the students listed (replacing what it had there). */
    async setAssignment(
      tx: Tx,
      a: { id: string; tenantId: string },
      to: { classId: string; wholeClass: boolean; studentIds: readonly string[] },
    ): Promise<void> {
      const data = { wholeClass: to.wholeClass, studentIds: to.wholeClass ? [] : [...to.studentIds] };
      await tx.assignment.upsert({
        where: { assessmentId_classId: { assessmentId: a.id, classId: to.classId } },
        create: { assessmentId: a.id, classId: to.classId, tenantId: a.tenantId, ...data },
        update: data,
      });
    },

    /** Marks a draft assigned; false when it was assigned already (by a call that committed first). */
    async markAssigned(tx: Tx, id: string): Promise<boolean> {
      const now = new Date();
      const { count } = await tx.assessment.updateMany({
        where: { id, assignedAt: null },
        data: { assignedAt: now, updatedAt: now },
      });
      return count === 1;
    },

    /** Questions, responses and results go with it (on delete cascade). */
    async delete(tx: Tx, id: string): Promise<void> {
      await tx.assessment.delete({ where: { id } });
    },

    /**
     * Locks the assessment's row for the rest of `tx`: serialises what changes its questions or
     * assigns it, so that the question limit holds, no one is given an assessment without one, two
     * edits of one question each keep what the other did not send, and no change of the questions
     * slips under a submit that is scoring them (it holds the row in key share).
     */
    async lockForEdit(tx: Tx, id: string): Promise<void> {
      await tx.$executeRawUnsafe('select 1 from assessments where id = $1::uuid for update', id);
    },

    /** Whether the assessment is a class's copy of a common assessment (its questions locked). */
    async isCommonCopy(tx: Tx, id: string): Promise<boolean> {
      const rows = await tx.$queryRawUnsafe<{ common: boolean }[]>(
        'select common_assessment_id is not null as common from assessments where id = $1::uuid',
        id,
      );
      return rows[0]?.common ?? false;
    },

    questionCount: (tx: Tx, assessmentId: string) => tx.question.count({ where: { assessmentId } }),

    hasResults,

    /** The assessment's questions in order: in `tx`, or (without) on the named statement. */
    listQuestions: async (assessmentId: string, tx?: Tx): Promise<QuestionRow[]> =>
      tx ? listQuestions(tx, assessmentId) : (await questionsOf(pool, assessmentId)).map(toQuestion),

    insertQuestions,

    /** Stores a question at `position` (the caller renumbers the others); returns its id. */
    async insertQuestionAt(
      tx: Tx,
      a: { id: string; tenantId: string },
      position: number,
      q: QuestionInput | QuestionRow,
    ): Promise<string> {
      const id = randomUUID();
      await tx.question.create({
        data: { id, assessmentId: a.id, tenantId: a.tenantId, position, ...questionFields(q) },
      });
      const standards = 'standards' in q ? (q.standards ?? []) : [];
      if (standards.length) await setQuestionStandards(tx, { id, tenantId: a.tenantId }, standards);
      return id;
    },

    renumber,

    async updateQuestion(tx: Tx, questionId: string, q: QuestionInput): Promise<void> {
      await tx.question.update({ where: { id: questionId }, data: questionFields(q) });
    },

    async deleteQuestion(tx: Tx, questionId: string): Promise<void> {
      await tx.question.delete({ where: { id: questionId } });
    },

    /**
     * The assessment's answers; with `taughtBy`, only those of students in the classes it is
     * assigned to that this caller teaches (a co-teacher of one of them, not of its own class).
     */
    async responsesForTeacher(assessmentId: string, taughtBy?: Owner): Promise<ResponseRecord[]> {
      const rows = await db.$queryRawUnsafe<ResponseSqlRow[]>(
        `select r.id, r.assessment_id, r.question_id, r.student_id, r.answer, r.client_seq, r.updated_at,
                p.first_name, p.last_name
           from responses r left join people p on p.user_id = r.student_id
          where r.assessment_id = $3::uuid
            and (not $4::boolean or exists (
                 select 1 from assessment_assignments x join classes xc on xc.class_id = x.class_id
                   join memberships m on m.class_id = x.class_id and m.student_id = r.student_id
                  where x.assessment_id = r.assessment_id and ${TEACHES('xc')}))
          order by r.student_id, r.updated_at, r.id`,
        taughtBy?.tenantId ?? null,
        taughtBy?.teacherId ?? null,
        assessmentId,
        taughtBy !== undefined,
      );
      return rows.map(toResponse);
    },
  };
}
