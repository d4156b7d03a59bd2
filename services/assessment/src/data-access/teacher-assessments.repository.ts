// What teachers do with their assessments and questions, on Prisma. Queries are scoped by tenant
// and owner (the local copy of the class says who owns it). Each change writes its event to the
// outbox in the same transaction.
import { randomUUID } from 'node:crypto';
import type { AssessmentRow, Owner, QuestionRow } from '../domain/assessment.ts';
import type { QuestionInput } from '../domain/questions.ts';
import type { AssessmentEvents, GenerationFacts } from '../messaging/assessment-events.publisher.ts';
import { uuidv7 } from '@checkpoint/service-kit';
import type pg from 'pg';
import {
  ASSESSMENT_SELECT,
  prepared,
  QUESTIONS_SQL,
  toAssessment,
  toQuestion,
  toResponse,
  type AssessmentSqlRow,
  type QuestionSqlRow,
  type ResponseRecord,
  type ResponseSqlRow,
} from './assessment-rows.ts';
import type { Db, Tx } from './prisma.ts';

type Executor = Db | Tx;

const OWNED = 'a.tenant_id = $1::uuid and a.teacher_id = $2::uuid and c.teacher_id = $2::uuid';

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

export type TeacherAssessmentsRepository = ReturnType<typeof teacherAssessmentsRepository>;

const questionsOf = prepared<QuestionSqlRow>('questions', QUESTIONS_SQL);

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
      ...questionFields(q),
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

/** `pool` (the one under `db`) serves the question list, a named statement as the students' are. */
export function teacherAssessmentsRepository(db: Db, events: AssessmentEvents, pool: pg.Pool) {
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
            ...questionFields(source),
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
          data: questionFields(q),
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
  };
}
