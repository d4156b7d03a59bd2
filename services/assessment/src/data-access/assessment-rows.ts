// The rows both sides read, as SQL and as plain objects: an assessment with its counts, a question,
// a response. The teachers' repository (teacher-assessments.repository.ts) and the students'
// (student-attempts.repository.ts) select them with the same columns and map them the same way.
import type {
  AssessmentRow,
  AssignmentRef,
  CountedAttempt,
  GenerationStatus,
  QuestionRow,
} from '../domain/assessment.ts';
import type { StandardRef } from '../domain/standards.ts';
import type pg from 'pg';

/**
 * Whom it is given to: the students of its assignments (a class's members, or the chosen ones of
 * them; each once); before it is assigned, the members of its own class (whom "Assign" gives it).
 */
const MEMBER_COUNT = `(case when a.assigned_at is null
          then (select count(*) from memberships m where m.class_id = a.class_id)
          else (select count(distinct m.student_id) from assessment_assignments x
                  join memberships m on m.class_id = x.class_id and (x.whole_class or m.student_id = any(x.student_ids))
                 where x.assessment_id = a.id) end)::int`;

/**
 * An assessment with its counts, its class (`c`) joined by `classJoin`: its own class, or (a
 * student's list) the class the student takes it through.
 */
export const assessmentSelect = (classJoin = 'join classes c on c.class_id = a.class_id') => `
  select a.id, a.tenant_id, c.class_id, a.teacher_id, a.title, a.description, a.topic, a.standard,
         a.due_date, a.is_active, a.assigned_at, a.content_to_assess, a.question_type,
         a.number_of_questions, a.generation_status, a.generation_provider, a.generation_error,
         a.created_at, a.updated_at, a.common_assessment_id, a.shuffle_questions, a.shuffle_options,
         a.opens_at, a.closes_at, a.time_limit_seconds, a.max_attempts, a.counted_attempt, a.review_short_answers,
         c.name as class_name, c.subject,
         (select count(*) from questions q where q.assessment_id = a.id)::int as question_count,
         (select count(*) from results r where r.assessment_id = a.id and r.counted)::int as response_count,
         ${MEMBER_COUNT} as member_count
    from assessments a ${classJoin}`;
export const ASSESSMENT_SELECT = assessmentSelect();

/**
 * ASSESSMENT_SELECT with the chosen standards (in the teacher's order) as one more column: the
 * teacher's reads. The students' reads do without (they never see alignment).
 */
export const TEACHER_ASSESSMENT_SELECT = ASSESSMENT_SELECT.replace(
  /\n\s*from assessments a /,
  `,
         coalesce((select json_agg(json_build_object('identifier', s.identifier, 'code', s.code, 'uri', s.uri,
                                                     'statement', s.statement, 'frameworkId', s.framework_id)
                                   order by s.position)
                     from assessment_standards s where s.assessment_id = a.id), '[]'::json) as standards,
         coalesce((select json_agg(json_build_object('classId', x.class_id, 'className', coalesce(xc.name, ''),
                                                     'wholeClass', x.whole_class, 'studentIds', x.student_ids)
                                   order by x.class_id = a.class_id desc, x.assigned_at, x.class_id)
                     from assessment_assignments x left join classes xc on xc.class_id = x.class_id
                    where x.assessment_id = a.id), '[]'::json) as assignments
    from assessments a `,
);

/** A json column as Prisma's raw query or pg hands it (parsed, or text). */
const jsonList = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v as T[] | null) ?? []));

const toStandardRef = (s: Partial<StandardRef>): StandardRef => ({
  identifier: s.identifier ?? '',
  code: s.code ?? '',
  uri: s.uri ?? '',
  frameworkId: s.frameworkId ?? null,
  statement: s.statement ?? '',
});

export interface AssessmentSqlRow {
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
  common_assessment_id: string | null;
  shuffle_questions: boolean;
  shuffle_options: boolean;
  opens_at: Date | null;
  closes_at: Date | null;
  time_limit_seconds: number | null;
  max_attempts: number;
  counted_attempt: CountedAttempt;
  review_short_answers: boolean;
  class_name: string;
  subject: string;
  question_count: number;
  response_count: number;
  member_count: number;
  /** Only in TEACHER_ASSESSMENT_SELECT. */
  standards?: unknown;
  /** Only in TEACHER_ASSESSMENT_SELECT. */
  assignments?: unknown;
  /** Only in the teachers' reads: the caller teaches its own class (teacher-assessments.repository.ts). */
  manages?: boolean;
}

export const toAssessment = (r: AssessmentSqlRow): AssessmentRow => ({
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
  commonAssessmentId: r.common_assessment_id,
  shuffleQuestions: r.shuffle_questions,
  shuffleOptions: r.shuffle_options,
  opensAt: r.opens_at,
  closesAt: r.closes_at,
  timeLimitSeconds: r.time_limit_seconds,
  maxAttempts: r.max_attempts,
  countedAttempt: r.counted_attempt,
  reviewShortAnswers: r.review_short_answers,
  className: r.class_name,
  subject: r.subject,
  questionCount: r.question_count,
  responseCount: r.response_count,
  memberCount: r.member_count,
  ...(r.standards === undefined ? {} : { standards: jsonList<Partial<StandardRef>>(r.standards).map(toStandardRef) }),
  ...(r.assignments === undefined ? {} : { assignments: jsonList<AssignmentRef>(r.assignments) }),
  ...(r.manages === undefined ? {} : { canEdit: r.manages }),
});

export interface ResponseSqlRow {
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

export const toResponse = (r: ResponseSqlRow): ResponseRecord => ({
  id: r.id,
  assessmentId: r.assessment_id,
  questionId: r.question_id,
  studentId: r.student_id,
  answer: r.answer,
  clientSeq: r.client_seq === null ? null : Number(r.client_seq),
  updatedAt: r.updated_at.toISOString(),
  student: { firstName: r.first_name ?? null, lastName: r.last_name ?? null },
});

export interface QuestionSqlRow {
  id: string;
  assessment_id: string;
  position: number;
  question_text: string;
  question_type: string;
  options: string[];
  correct_answer: string;
  accepted_answers: string[];
  points: number;
  /** The question's alignment (the teacher's QUESTIONS_SQL). */
  standards?: unknown;
}

export const toQuestion = (q: QuestionSqlRow): QuestionRow => ({
  id: q.id,
  assessmentId: q.assessment_id,
  position: q.position,
  questionText: q.question_text,
  questionType: q.question_type,
  options: q.options,
  correctAnswer: q.correct_answer,
  acceptedAnswers: q.accepted_answers,
  points: q.points,
  ...(q.standards === undefined ? {} : { standards: jsonList<Partial<StandardRef>>(q.standards).map(toStandardRef) }),
});

/** The questions as their teacher reads them (with each one's alignment); students have their own. */
export const QUESTIONS_SQL = `
  select q.id, q.assessment_id, q.position, q.question_text, q.question_type, q.options, q.correct_answer,
         q.accepted_answers, q.points,
         coalesce((select json_agg(json_build_object('identifier', s.identifier, 'code', s.code, 'uri', s.uri,
                                                     'frameworkId', s.framework_id)
                                   order by s.code, s.identifier)
                     from question_standards s where s.question_id = q.id), '[]'::json) as standards
    from questions q where q.assessment_id = $1::uuid order by q.position, q.id`;

/** A statement run by every student of a class at once: named, so parsed and planned once per connection. */
export function prepared<Row extends pg.QueryResultRow>(name: string, text: string) {
  return async (on: pg.Pool | pg.PoolClient, ...values: unknown[]): Promise<Row[]> =>
    (await on.query<Row>({ name: `assessment.${name}`, text, values })).rows;
}
