// What teachers and students do with classes. Ownership is enforced by the repository's scoped
// queries; here: join-code making and the join rules (§8 'not found' / 'Already enrolled').
import type { ClassesRepository, Owner, Student } from '../data-access/classes.repository.ts';
import { JoinCodeTakenError } from '../data-access/classes.repository.ts';
import { JOIN_CODE_ATTEMPTS, type ClassDetails, type ClassView, type JoinResult, type MemberView } from './class.ts';
import { AlreadyEnrolledError, ClassNotFoundError, StudentNotInClassError } from './errors.ts';
import { generateJoinCode, isValidJoinCode, normalizeJoinCode } from './join-code.ts';

export interface ClassUseCasesDeps {
  classes: ClassesRepository;
  /** Replaceable in tests to force collisions. */
  newJoinCode?: () => string;
  /** Most classes one browse call lists (SECURITY: page size limit). */
  browseLimit?: number;
}

export type ClassUseCases = ReturnType<typeof classUseCases>;

export function classUseCases({ classes, newJoinCode = generateJoinCode, browseLimit = 500 }: ClassUseCasesDeps) {
  const orNotFound = <T>(value: T | undefined): T => {
    if (value === undefined) throw new ClassNotFoundError();
    return value;
  };

  return {
    listClasses: (owner: Owner, archived: boolean) => classes.listForTeacher(owner, archived),

    getClass: async (owner: Owner, id: string) => orNotFound(await classes.findForTeacher(owner, id)),

    async createClass(owner: Owner, details: ClassDetails): Promise<ClassView> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await classes.create(owner, details, newJoinCode());
        } catch (err) {
          if (!(err instanceof JoinCodeTakenError) || attempt >= JOIN_CODE_ATTEMPTS) throw err;
        }
      }
    },

    updateClass: async (owner: Owner, id: string, details: ClassDetails) =>
      orNotFound(await classes.update(owner, id, details)),

    archiveClass: async (owner: Owner, id: string) => orNotFound(await classes.setArchived(owner, id, true)),

    restoreClass: async (owner: Owner, id: string) => orNotFound(await classes.setArchived(owner, id, false)),

    async deleteClass(owner: Owner, id: string): Promise<void> {
      if (!(await classes.delete(owner, id))) throw new ClassNotFoundError();
    },

    listStudents: async (owner: Owner, id: string): Promise<MemberView[]> =>
      orNotFound(await classes.listMembers(owner, id)),

    async removeStudent(owner: Owner, classId: string, studentId: string): Promise<void> {
      const outcome = await classes.removeMember(owner, classId, studentId);
      if (outcome === 'no-class') throw new ClassNotFoundError();
      if (outcome === 'no-member') throw new StudentNotInClassError();
    },

    /** Join by code: case and surrounding spaces do not matter; archived classes are not found. */
    async joinByCode(student: Student, typed: string): Promise<JoinResult> {
      const code = normalizeJoinCode(typed);
      const cls = isValidJoinCode(code) ? await classes.findActiveByJoinCode(code) : undefined;
      if (!cls) throw new ClassNotFoundError();
      if ((await classes.enrol(cls, student)) === 'already-enrolled') throw new AlreadyEnrolledError();
      return { className: cls.name, classId: cls.id };
    },

    /** Join from the browse list: only active classes of the student's own tenant. */
    async joinDirect(student: Student, classId: string): Promise<JoinResult> {
      const cls = orNotFound(await classes.findActiveInTenant(student.tenantId, classId));
      if ((await classes.enrol(cls, student)) === 'already-enrolled') throw new AlreadyEnrolledError();
      return { className: cls.name, classId: cls.id };
    },

    listEnrolments: (student: Student) => classes.listEnrolments(student),

    browse: (student: Student) => classes.browse(student, browseLimit),
  };
}
