// Who may read what (SECURITY: object level). A teacher reaches only assessments of a class they
// teach (owner or co-teacher, from the class events; before those, AssessmentCreated's teacher),
// and the support material and recommendations of an assessment given to a class they teach
// (AssessmentAssigned), the recommendations then written from that class's results only; a
// student only assessments of a class they are in (or given to it), and practice only once their
// own result exists (never its answer keys: practice.use-case.ts). Anything else is "not found".
import { lookupNow, type AwaitRecent, type Caller } from '@checkpoint/service-kit';
import type { AssessmentRecord, AssessmentsRepository, ResultCopy } from '../data-access/assessments.repository.ts';
import { AssessmentNotFoundError, ResultNotFoundError } from './errors.ts';

/**
 * A teacher of the assessment's class: its owner (tenant and teacher) or a co-teacher, as the class
 * events say; while they have said nothing of the class, the assessment's creator.
 */
export const ownsAssessment = (
  a: Pick<AssessmentRecord, 'teacherId' | 'tenantId' | 'classTeachers'>,
  caller: Caller,
) => {
  if (caller.role === 'student') return false;
  const c = a.classTeachers;
  if (!c) return a.teacherId === caller.userId && a.tenantId === caller.tenantId;
  return (c.teacherId === caller.userId && c.tenantId === caller.tenantId) || c.coTeacherIds.includes(caller.userId);
};

/**
 * Whose results a teacher reads of an assessment: all (`classIds` null: a teacher of its class) or
 * only those taken in `classIds`, the classes it is given to that they teach.
 */
export interface TeacherReach {
  assessment: AssessmentRecord;
  classIds: string[] | null;
}

/** `awaitRecent`: an assessment created a moment ago may not have reached our copy yet; wait for it, boundedly. */
export function accessRules(assessments: AssessmentsRepository, awaitRecent: AwaitRecent = lookupNow) {
  const find = (id: string) => awaitRecent(id, () => assessments.find(id));

  /** A teacher of its class (every result), or of classes it is given to (theirs only); else undefined. */
  async function teacherReach(a: AssessmentRecord, caller: Caller): Promise<TeacherReach | undefined> {
    if (ownsAssessment(a, caller)) return { assessment: a, classIds: null };
    if (caller.role === 'student') return undefined;
    const classIds = await assessments.assignedClassesTaughtBy(a.id, caller);
    return classIds.length ? { assessment: a, classIds } : undefined;
  }

  return {
    async ownedAssessment(caller: Caller, id: string): Promise<AssessmentRecord> {
      const a = await find(id);
      if (!a || !ownsAssessment(a, caller)) throw new AssessmentNotFoundError();
      return a;
    },

    /** A teacher of its class or of a class it is given to (`teacherReach`), else 404. */
    async teacherAssessment(caller: Caller, id: string): Promise<TeacherReach> {
      const a = await find(id);
      const reach = a && (await teacherReach(a, caller));
      if (!reach) throw new AssessmentNotFoundError();
      return reach;
    },

    /**
     * A teacher of its class or of a class it is given to (`asTeacher`), or a student of such a
     * class who has submitted this assessment.
     */
    async practiceAssessment(
      caller: Caller,
      id: string,
    ): Promise<{ assessment: AssessmentRecord; asTeacher: boolean }> {
      const a = await find(id);
      if (!a) throw new AssessmentNotFoundError();
      if (await teacherReach(a, caller)) return { assessment: a, asTeacher: true };
      if (
        caller.role === 'student' &&
        ((await assessments.isMember(a.classId, caller.userId)) ||
          (await assessments.isMemberOfAssignedClass(a.id, caller.userId))) &&
        (await assessments.hasResult(a.id, caller.userId))
      )
        return { assessment: a, asTeacher: false };
      throw new AssessmentNotFoundError();
    },

    /**
     * The student whose result it is, the teacher of its assessment, or a teacher of the class it
     * was taken in (an assessment given to that class from another class: its co-teacher).
     */
    async result(
      caller: Caller,
      resultId: string,
    ): Promise<{ result: ResultCopy; assessment: AssessmentRecord; asStudent: boolean }> {
      const result = await assessments.findResult(resultId);
      const assessment = result ? await assessments.find(result.assessmentId) : undefined;
      if (!result || !assessment) throw new ResultNotFoundError();
      if (caller.role === 'student' && result.studentId === caller.userId)
        return { result, assessment, asStudent: true };
      if (ownsAssessment(assessment, caller)) return { result, assessment, asStudent: false };
      if (result.classId !== assessment.classId) {
        const taughtIn = await assessments.classTeachers(result.classId);
        if (taughtIn && ownsAssessment({ teacherId: '', tenantId: '', classTeachers: taughtIn }, caller))
          return { result, assessment, asStudent: false };
      }
      throw new ResultNotFoundError();
    },
  };
}

export type AccessRules = ReturnType<typeof accessRules>;
