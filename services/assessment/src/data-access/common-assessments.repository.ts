// A district's common assessments (migrations/013): the admin's drafts and publications, the
// teachers they are published to (through this service's copy of the classes, with their school
// and grades), and each class's copy. Scoped by tenant; no rule is decided here (the use case,
// domain/common-assessments.use-case.ts, opens the transaction and decides).
import { randomUUID } from 'node:crypto';
import { uuidv7 } from '@checkpoint/service-kit';
import type { QuestionInput } from '../domain/questions.ts';
import type { AssessmentFacts } from '../messaging/assessment-events.publisher.ts';
import type { Db, Tx } from './prisma.ts';

type Executor = Db | Tx;

/** A standard a question is aligned to: a copy of the catalogue's item. */
export interface StandardCopy {
  identifier: string;
  code: string;
  uri: string;
  frameworkId: string | null;
}

export interface CommonQuestion extends QuestionInput {
  standards: StandardCopy[];
}

export interface CommonAssessmentRow {
  id: string;
  tenantId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  status: 'draft' | 'published';
  targetSchools: string[];
  targetGrades: string[];
  targetSubjects: string[];
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  questionCount: number;
}

export interface Targets {
  schools: string[];
  grades: string[];
  subjects: string[];
}

const select = (extra = '') => `
  select ca.id, ca.tenant_id as "tenantId", ca.title, ca.description, ca.topic,
         ca.standard, ca.status, ca.target_schools as "targetSchools", ca.target_grades as "targetGrades",
         ca.target_subjects as "targetSubjects", ca.published_at as "publishedAt", ca.created_at as "createdAt",
         ca.updated_at as "updatedAt",
         (select count(*) from common_assessment_questions q where q.common_assessment_id = ca.id)::int as "questionCount"
         ${extra}
    from common_assessments ca`;
const SELECT = select();

/**
 * The teacher's classes (owned or co-taught, not archived) a publication reaches: of one of its schools, sharing one of
 * its grades, of one of its subjects (case-insensitive); an empty list matches every class.
 * $1 tenant, $2 teacher; `ca` is the common assessment.
 */
const MATCHING_CLASSES = `
  select c.class_id from classes c
   where c.tenant_id = $1::uuid and (c.teacher_id = $2::uuid or $2::uuid = any(c.co_teacher_ids)) and not c.archived
     and (cardinality(ca.target_schools) = 0 or c.school_id = any(ca.target_schools))
     and (cardinality(ca.target_grades) = 0 or c.grades && ca.target_grades)
     and (cardinality(ca.target_subjects) = 0 or lower(c.subject) = any(ca.target_subjects))`;

export type CommonAssessmentsRepository = ReturnType<typeof commonAssessmentsRepository>;

export function commonAssessmentsRepository(db: Db) {
  return {
    transaction: <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => db.$transaction(fn),

    /**
     * What a publication may name, from the district's live classes: their schools (id and name),
     * grades and subjects, each sorted.
     */
    async targets(tenantId: string) {
      const [row] = await db.$queryRawUnsafe<
        { schools: { id: string; name: string }[] | null; grades: string[] | null; subjects: string[] | null }[]
      >(
        `with live as (select school_id, school_name, grades, subject from classes where tenant_id = $1::uuid and not archived)
         select (select json_agg(json_build_object('id', s.id, 'name', s.name) order by s.name, s.id)
                   from (select school_id as id, max(school_name) as name from live where school_id <> ''
                          group by school_id) s) as schools,
                (select array_agg(g order by g) from (select distinct unnest(grades) as g from live) gs
                  where g <> '') as grades,
                (select array_agg(subject order by subject) from (select distinct subject from live) ss
                  where subject <> '') as subjects`,
        tenantId,
      );
      return { schools: row?.schools ?? [], grades: row?.grades ?? [], subjects: row?.subjects ?? [] };
    },

    /**
     * The catalogue's items for these identifiers visible to the tenant (its own frameworks or the
     * platform's), not withdrawn; the tenant's own first when both hold one.
     */
    async resolveStandards(
      tenantId: string,
      identifiers: string[],
      ex: Executor = db,
    ): Promise<Map<string, StandardCopy>> {
      if (identifiers.length === 0) return new Map();
      const rows = await ex.$queryRawUnsafe<StandardCopy[]>(
        `select distinct on (identifier) identifier, code, uri, framework_id as "frameworkId"
           from standard_items
          where identifier = any($2::text[]) and withdrawn_at is null
            and (tenant_id = $1::uuid or tenant_id is null)
          order by identifier, (tenant_id is null), updated_at desc`,
        tenantId,
        identifiers,
      );
      return new Map(rows.map((r) => [r.identifier, r]));
    },

    async insert(
      tx: Tx,
      a: { tenantId: string; title: string; description: string; topic: string; standard: string },
    ): Promise<string> {
      const id = uuidv7();
      await tx.$executeRawUnsafe(
        `insert into common_assessments (id, tenant_id, title, description, topic, standard)
         values ($1::uuid, $2::uuid, $3, $4, $5, $6)`,
        id,
        a.tenantId,
        a.title,
        a.description,
        a.topic,
        a.standard,
      );
      return id;
    },

    /** Replaces the questions (numbered 1..n in the given order). */
    async replaceQuestions(tx: Tx, a: { id: string; tenantId: string }, questions: CommonQuestion[]): Promise<void> {
      await tx.$executeRawUnsafe('delete from common_assessment_questions where common_assessment_id = $1::uuid', a.id);
      await tx.$executeRawUnsafe(
        `insert into common_assessment_questions
           (id, common_assessment_id, tenant_id, position, question_text, question_type, options, correct_answer,
            accepted_answers, points, standards)
         select gen_random_uuid(), $1::uuid, $2::uuid, q.position, q."questionText", q."questionType", q.options,
                q."correctAnswer", q."acceptedAnswers", q.points, q.standards
           from jsonb_to_recordset($3::jsonb) as q(position int, "questionText" text, "questionType" text,
                options text[], "correctAnswer" text, "acceptedAnswers" text[], points double precision, standards jsonb)`,
        a.id,
        a.tenantId,
        JSON.stringify(questions.map((q, i) => ({ ...q, position: i + 1 }))),
      );
      await tx.$executeRawUnsafe('update common_assessments set updated_at = now() where id = $1::uuid', a.id);
    },

    async questions(id: string, ex: Executor = db): Promise<(CommonQuestion & { id: string; position: number })[]> {
      return ex.$queryRawUnsafe(
        `select id, position, question_text as "questionText", question_type as "questionType", options,
                correct_answer as "correctAnswer", accepted_answers as "acceptedAnswers", points, standards
           from common_assessment_questions where common_assessment_id = $1::uuid order by position, id`,
        id,
      );
    },

    /** The district's common assessment; `lock` holds its row for the rest of `tx`. */
    async findForTenant(tenantId: string, id: string, ex: Executor = db, lock = false) {
      const rows = await ex.$queryRawUnsafe<CommonAssessmentRow[]>(
        `${SELECT} where ca.tenant_id = $1::uuid and ca.id = $2::uuid${lock ? ' for update of ca' : ''}`,
        tenantId,
        id,
      );
      return rows[0];
    },

    listForTenant: (tenantId: string) =>
      db.$queryRawUnsafe<CommonAssessmentRow[]>(
        `${SELECT} where ca.tenant_id = $1::uuid order by ca.created_at desc, ca.id`,
        tenantId,
      ),

    /** The published common assessments reaching one of the teacher's classes, with the classes each reaches. */
    listPublishedTo: (tenantId: string, teacherId: string) =>
      db.$queryRawUnsafe<(CommonAssessmentRow & { classIds: string[] })[]>(
        `select * from (
           ${select(`, array(${MATCHING_CLASSES}) as "classIds"`)}
            where ca.tenant_id = $1::uuid and ca.status = 'published'
         ) p where cardinality(p."classIds") > 0
         order by p."publishedAt" desc, p.id`,
        tenantId,
        teacherId,
      ),

    /** Whether the published common assessment reaches this class of the teacher. */
    async reachesClass(tx: Tx, tenantId: string, teacherId: string, id: string, classId: string): Promise<boolean> {
      const rows = await tx.$queryRawUnsafe<{ ok: boolean }[]>(
        `select true as ok from common_assessments ca
          where ca.tenant_id = $1::uuid and ca.id = $3::uuid and ca.status = 'published'
            and $4::uuid in (${MATCHING_CLASSES})`,
        tenantId,
        teacherId,
        id,
        classId,
      );
      return rows.length > 0;
    },

    async publish(tx: Tx, id: string, targets: Targets): Promise<void> {
      await tx.$executeRawUnsafe(
        `update common_assessments
            set status = 'published', published_at = coalesce(published_at, now()), updated_at = now(),
                target_schools = $2::text[], target_grades = $3::text[], target_subjects = $4::text[]
          where id = $1::uuid`,
        id,
        targets.schools,
        targets.grades,
        targets.subjects.map((s) => s.toLowerCase()),
      );
    },

    /** The class's copy, if it has one. */
    async copyInClass(tx: Tx, id: string, classId: string): Promise<string | undefined> {
      const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
        'select id from assessments where common_assessment_id = $1::uuid and class_id = $2::uuid',
        id,
        classId,
      );
      return rows[0]?.id;
    },

    /**
     * The class's copy: assigned at once, ready (nothing to generate), linked by
     * common_assessment_id; its questions and their standards copied.
     */
    async insertCopy(
      tx: Tx,
      copy: AssessmentFacts & { id: string; commonAssessmentId: string },
      questions: CommonQuestion[],
    ): Promise<void> {
      const { id, tenantId, classId, teacherId, title, description, topic, standard, commonAssessmentId } = copy;
      const owner = { tenantId };
      const now = new Date();
      await tx.assessment.create({
        data: {
          ...{ id, tenantId, classId, teacherId, title, description, topic, standard, commonAssessmentId },
          isActive: true,
          assignedAt: now,
          contentToAssess: '',
          questionType: questions[0]?.questionType ?? 'multiple_choice',
          numberOfQuestions: questions.length,
          generationStatus: 'ready',
          createdAt: now,
          updatedAt: now,
          // Given to its whole class at once (migrations/018).
          assignments: { create: { classId, tenantId, wholeClass: true, assignedAt: now } },
        },
      });
      let position = 1;
      for (const q of questions) {
        const questionId = randomUUID();
        await tx.question.create({
          data: {
            id: questionId,
            assessmentId: id,
            tenantId: owner.tenantId,
            position: position++,
            questionText: q.questionText,
            questionType: q.questionType,
            options: q.options,
            correctAnswer: q.correctAnswer,
            acceptedAnswers: q.acceptedAnswers,
            points: q.points,
          },
        });
        if (q.standards.length)
          await tx.questionStandard.createMany({
            data: q.standards.map((s) => ({
              questionId,
              tenantId: owner.tenantId,
              identifier: s.identifier,
              code: s.code,
              uri: s.uri,
              frameworkId: s.frameworkId,
            })),
          });
      }
    },
  };
}
