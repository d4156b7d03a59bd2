// Who may read and grade a result besides its student: a teacher (owner or co-teacher) of the class
// it was taken in, or of the assessment's own class, or the assessment's author in its tenant. One
// rule for GET /api/results/{id} and the grading routes.
import type { TeacherAssessmentsRepository } from '../data-access/teacher-assessments.repository.ts';

export async function teachesResult(
  assessments: Pick<TeacherAssessmentsRepository, 'ownsClass' | 'findOwned'>,
  caller: { userId: string; tenantId: string; role: string },
  r: { teacherId: string; tenantId: string; classId: string; assessmentId: string },
): Promise<boolean> {
  if (caller.role === 'student') return false;
  if (r.teacherId === caller.userId && r.tenantId === caller.tenantId) return true;
  const teacher = { tenantId: caller.tenantId, teacherId: caller.userId };
  return (
    (await assessments.ownsClass(teacher, r.classId)) ||
    (await assessments.findOwned(teacher, r.assessmentId)) !== undefined
  );
}
