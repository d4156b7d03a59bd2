// Whom an assessment is given to (docs/architecture.md, "Assigning"): several of its teacher's
// classes, each wholly (later joiners too) or to chosen students of it. Pure: the use case reads
// the classes, their members and the current assignments, and stores what this returns.
import { ValidationError } from '@checkpoint/service-kit';

/** What the teacher asks (POST /api/assessments/{id}/assign): none of it, the assessment's own class wholly. */
export interface AssignTarget {
  classIds?: string[] | undefined;
  studentIds?: string[] | undefined;
}

/** One class's assignment as it is to be stored. */
export interface ClassAssignment {
  classId: string;
  wholeClass: boolean;
  studentIds: string[];
}

const refuse = (field: string, message: string): never => {
  throw new ValidationError(message, { [field]: message });
};

function noneTwice(ids: readonly string[], field: string, what: string) {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) refuse(`${field}.${i}`, `This ${what} is named twice`);
    seen.add(id);
  });
}

/**
 * The assignments to store, only those that change: an assignment only adds (a class given wholly
 * stays so; chosen students join those chosen before), so no student loses an assessment they may
 * have started. Refused, naming the field: a class that is not the teacher's or is archived, a
 * student in none of the classes, a class with none of the chosen students, an id named twice.
 */
export function planAssignment(
  target: AssignTarget,
  ownClassId: string,
  /** The teacher's classes among those named. */
  owned: ReadonlyMap<string, { archived: boolean }>,
  /** The members of the classes named (read when students are chosen). */
  members: ReadonlyMap<string, ReadonlySet<string>>,
  current: ReadonlyMap<string, { wholeClass: boolean; studentIds: readonly string[] }>,
): ClassAssignment[] {
  const classIds = target.classIds ?? [ownClassId];
  noneTwice(classIds, 'classIds', 'class');
  classIds.forEach((classId, i) => {
    const found = owned.get(classId);
    if (!found) refuse(`classIds.${i}`, 'Not one of your classes');
    if (found!.archived) refuse(`classIds.${i}`, 'This class is archived: restore it to assign to it');
  });
  const chosen = target.studentIds;
  if (chosen) {
    noneTwice(chosen, 'studentIds', 'student');
    chosen.forEach((studentId, i) => {
      if (!classIds.some((c) => members.get(c)?.has(studentId)))
        refuse(`studentIds.${i}`, 'Not a student of the chosen classes');
    });
  }
  const plan: ClassAssignment[] = [];
  classIds.forEach((classId, i) => {
    const before = current.get(classId);
    if (before?.wholeClass) return;
    if (!chosen) {
      plan.push({ classId, wholeClass: true, studentIds: [] });
      return;
    }
    const here = chosen.filter((s) => members.get(classId)?.has(s));
    if (here.length === 0) refuse(`classIds.${i}`, 'None of the chosen students is in this class');
    const all = new Set([...(before?.studentIds ?? []), ...here]);
    if (before && all.size === before.studentIds.length) return;
    plan.push({ classId, wholeClass: false, studentIds: [...all] });
  });
  return plan;
}
