// Local copies from other services' events (assessments, memberships, results) and the lookups
// that decide who may read what. Writers take the inbox transaction; readers return plain objects.
import type { AnswerOutcome, AssessmentQuestion, LessonFacts } from '../domain/practice.ts';
import type { ResultFacts } from '../domain/recommendations.ts';
import type { Db, Tx } from './prisma.ts';

export interface AssessmentCopy {
  id: string;
  tenantId: string;
  classId: string;
  teacherId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  content: string;
}

export interface ResultCopy {
  id: string;
  assessmentId: string;
  tenantId: string;
  classId: string;
  studentId: string;
  percentage: number;
  level: string;
  answers: AnswerOutcome[];
}

/** Who teaches a class: its owner (tenant, teacher) and co-teachers. */
export interface ClassTeachers {
  tenantId: string;
  teacherId: string;
  coTeacherIds: string[];
}

export interface AssessmentRecord extends AssessmentCopy {
  questions: AssessmentQuestion[];
  /** Who teaches its class; null when no class event has told us yet (its creator's rule then). */
  classTeachers: ClassTeachers | null;
}

export const lessonOf = (a: AssessmentRecord): LessonFacts => ({
  title: a.title,
  topic: a.topic || a.standard,
  content: a.content,
  questions: a.questions,
});

const asQuestions = (v: unknown): AssessmentQuestion[] => (Array.isArray(v) ? (v as AssessmentQuestion[]) : []);
const asAnswers = (v: unknown): AnswerOutcome[] => (Array.isArray(v) ? (v as AnswerOutcome[]) : []);

export type AssessmentsRepository = ReturnType<typeof assessmentsRepository>;

export function assessmentsRepository(db: Db) {
  return {
    async find(id: string): Promise<AssessmentRecord | undefined> {
      const row = await db.assessment.findUnique({ where: { id } });
      if (!row) return undefined;
      const classTeachers = await db.classTeachers.findUnique({
        where: { classId: row.classId },
        select: { tenantId: true, teacherId: true, coTeacherIds: true },
      });
      return { ...row, questions: asQuestions(row.questions), classTeachers };
    },

    /** Who teaches the class, as its events said; undefined before any did. */
    async classTeachers(classId: string): Promise<ClassTeachers | undefined> {
      const row = await db.classTeachers.findUnique({
        where: { classId },
        select: { tenantId: true, teacherId: true, coTeacherIds: true },
      });
      return row ?? undefined;
    },

    /**
     * The classes the assessment is given to (AssessmentAssigned) that `teacher` teaches (owner or
     * co-teacher, as the class events say), sorted.
     */
    async assignedClassesTaughtBy(
      assessmentId: string,
      teacher: { userId: string; tenantId: string },
    ): Promise<string[]> {
      const given = await db.assessmentClass.findMany({ where: { assessmentId }, select: { classId: true } });
      if (given.length === 0) return [];
      const taught = await db.classTeachers.findMany({
        where: {
          classId: { in: given.map((g) => g.classId) },
          OR: [{ teacherId: teacher.userId, tenantId: teacher.tenantId }, { coTeacherIds: { has: teacher.userId } }],
        },
        select: { classId: true },
        orderBy: { classId: 'asc' },
      });
      return taught.map((t) => t.classId);
    },

    async isMember(classId: string, studentId: string): Promise<boolean> {
      return (await db.classMember.count({ where: { classId, studentId } })) > 0;
    },

    /** A student of a class the assessment is given to (other than its own class). */
    async isMemberOfAssignedClass(assessmentId: string, studentId: string): Promise<boolean> {
      const given = await db.assessmentClass.findMany({ where: { assessmentId }, select: { classId: true } });
      if (given.length === 0) return false;
      return (await db.classMember.count({ where: { studentId, classId: { in: given.map((g) => g.classId) } } })) > 0;
    },

    async findResult(id: string): Promise<ResultCopy | undefined> {
      const row = await db.result.findUnique({ where: { id } });
      return row ? { ...row, answers: asAnswers(row.answers) } : undefined;
    },

    async hasResult(assessmentId: string, studentId: string): Promise<boolean> {
      return (await db.result.count({ where: { assessmentId, studentId } })) > 0;
    },

    /** The student's latest result of the assessment, or undefined. */
    async latestResult(assessmentId: string, studentId: string): Promise<ResultCopy | undefined> {
      const row = await db.result.findFirst({ where: { assessmentId, studentId }, orderBy: { submittedAt: 'desc' } });
      return row ? { ...row, answers: asAnswers(row.answers) } : undefined;
    },

    /** How many distractors the student's multiple-choice practice shows fewer (0: none set). */
    async reducedChoicesOf(studentId: string): Promise<number> {
      const row = await db.studentAccommodation.findUnique({ where: { studentId }, select: { reducedChoices: true } });
      return row?.reducedChoices ?? 0;
    },

    /** Its results, or (with `classIds`) only those taken in these classes. */
    async resultsOf(assessmentId: string, classIds?: readonly string[]): Promise<ResultFacts[]> {
      const rows = await db.result.findMany({
        where: { assessmentId, ...(classIds ? { classId: { in: [...classIds] } } : {}) },
        orderBy: { submittedAt: 'asc' },
      });
      return rows.map((r) => ({ percentage: r.percentage, level: r.level, answers: asAnswers(r.answers) }));
    },
  };
}

// --- writers, inside the consumer's inbox transaction ---

export async function upsertAssessment(tx: Tx, a: AssessmentCopy): Promise<void> {
  const { id, ...rest } = a;
  await tx.assessment.upsert({ where: { id }, create: a, update: { ...rest, updatedAt: new Date() } });
}

export async function updateAssessmentDetails(
  tx: Tx,
  id: string,
  details: Pick<AssessmentCopy, 'title' | 'description' | 'topic' | 'standard'>,
): Promise<void> {
  await tx.assessment.updateMany({ where: { id }, data: { ...details, updatedAt: new Date() } });
}

export async function replaceQuestions(tx: Tx, id: string, questions: AssessmentQuestion[]): Promise<void> {
  await tx.assessment.updateMany({ where: { id }, data: { questions: questions as object[], updatedAt: new Date() } });
}

/** Everything kept for an assessment goes with it (assessment deleted). */
export async function deleteAssessment(tx: Tx, id: string): Promise<void> {
  await tx.generationJob.deleteMany({ where: { assessmentId: id } });
  await tx.practiceMaterial.deleteMany({ where: { assessmentId: id } });
  await tx.resultPractice.deleteMany({ where: { assessmentId: id } });
  await tx.practiceAttempt.deleteMany({ where: { assessmentId: id } });
  await tx.recommendation.deleteMany({ where: { assessmentId: id } });
  await tx.result.deleteMany({ where: { assessmentId: id } });
  await tx.assessmentClass.deleteMany({ where: { assessmentId: id } });
  await tx.assessment.deleteMany({ where: { id } });
}

/** The assessment is given to the class (AssessmentAssigned): kept once. */
/** The student's reduced answer choices as AccommodationsChanged last said (a change is the whole setting). */
export async function keepReducedChoices(
  tx: Tx,
  a: { studentId: string; tenantId: string; reducedChoices: number },
): Promise<void> {
  const row = { tenantId: a.tenantId, reducedChoices: a.reducedChoices, updatedAt: new Date() };
  await tx.studentAccommodation.upsert({
    where: { studentId: a.studentId },
    create: { studentId: a.studentId, ...row },
    update: row,
  });
}

export async function keepAssessmentClass(
  tx: Tx,
  a: { assessmentId: string; classId: string; tenantId: string },
): Promise<void> {
  await tx.assessmentClass.upsert({
    where: { assessmentId_classId: { assessmentId: a.assessmentId, classId: a.classId } },
    create: a,
    update: {},
  });
}

export async function addMember(tx: Tx, m: { classId: string; studentId: string; tenantId: string }): Promise<void> {
  await tx.classMember.upsert({
    where: { classId_studentId: { classId: m.classId, studentId: m.studentId } },
    create: m,
    update: {},
  });
}

export async function removeMember(tx: Tx, classId: string, studentId: string): Promise<void> {
  await tx.classMember.deleteMany({ where: { classId, studentId } });
}

export async function deleteClassMembers(tx: Tx, classId: string): Promise<void> {
  await tx.classMember.deleteMany({ where: { classId } });
  await tx.classTeachers.deleteMany({ where: { classId } });
  await tx.assessmentClass.deleteMany({ where: { classId } });
}

/** Keeps who teaches the class as its latest ClassCreated/ClassUpdated says (the full state). */
export async function keepClassTeachers(tx: Tx, classId: string, teachers: ClassTeachers): Promise<void> {
  await tx.classTeachers.upsert({ where: { classId }, create: { classId, ...teachers }, update: teachers });
}

export async function insertResult(tx: Tx, r: ResultCopy): Promise<void> {
  await tx.result.upsert({
    where: { id: r.id },
    create: { ...r, answers: r.answers as object[] },
    update: { percentage: r.percentage, level: r.level, answers: r.answers as object[] },
  });
}

/** The student's result of the assessment that counts is now `r`: any other of theirs goes. */
export async function replaceCountedResult(tx: Tx, r: ResultCopy): Promise<void> {
  await tx.result.deleteMany({ where: { assessmentId: r.assessmentId, studentId: r.studentId, id: { not: r.id } } });
  await insertResult(tx, r);
}

/** A reopened attempt's result is withdrawn. */
export async function deleteResult(tx: Tx, id: string): Promise<void> {
  await tx.result.deleteMany({ where: { id } });
}

/**
 * A teacher's regrade (ResultRegraded): the copy takes the new percentage, level and answers.
 * Result practice written for the old level and not yet tried is dropped when the level now calls
 * for the other type (`staleType`), so the next read writes it for the new level.
 */
export async function regradeResult(
  tx: Tx,
  r: Pick<ResultCopy, 'id' | 'percentage' | 'level' | 'answers'>,
  staleType: string,
): Promise<void> {
  await tx.result.updateMany({
    where: { id: r.id },
    data: { percentage: r.percentage, level: r.level, answers: r.answers as object[] },
  });
  await tx.resultPractice.deleteMany({ where: { resultId: r.id, type: staleType, attemptedAt: null } });
}

export async function setResultLevel(tx: Tx, id: string, level: string): Promise<void> {
  await tx.result.updateMany({ where: { id }, data: { level } });
}
