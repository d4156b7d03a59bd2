// What teachers and students do with classes. Ownership is enforced by the repository's scoped
// queries; here: join-code making, the join rules ('Class not found' / 'Already enrolled') and the
// Free Trial limits (3 classes, 50 students).
import type {
  ClassesRepository,
  ClassTeacher,
  JoinableClass,
  Owner,
  Student,
} from '../data-access/classes.repository.ts';
import { invitationView, JoinCodeTakenError, MAX_CO_TEACHERS } from '../data-access/classes.repository.ts';
import { JOIN_CODE_ATTEMPTS, type ClassDetails, type ClassView, type JoinResult, type MemberView } from './class.ts';
import {
  AlreadyEnrolledError,
  AlreadyInvitedError,
  AlreadyTeacherError,
  STUDENT_NOT_INVITABLE,
  CoTeachersFullError,
  NoInvitableTeacherError,
  NotClassOwnerError,
  ONLY_OWNER_ADDS,
  ONLY_OWNER_DELETES,
  OWNER_STAYS,
  TeacherNotInClassError,
  CLASS_LIMIT_REACHED,
  ClassNotFoundError,
  JoinRestrictedError,
  PlanLimitError,
  STUDENT_LIMIT_REACHED,
  StudentNotInClassError,
} from './errors.ts';
import { generateJoinCode, isValidJoinCode, normalizeJoinCode } from './join-code.ts';
import { FREE_TRIAL_LIMITS, onFreeTrial } from './plan.ts';

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

  /** The Free Trial's limit for this teacher, or undefined when their plan has none. */
  const freeTrialLimit = async (teacherId: string, limit: keyof typeof FREE_TRIAL_LIMITS) =>
    onFreeTrial(await classes.tenantKindOf(teacherId)) ? FREE_TRIAL_LIMITS[limit] : undefined;

  async function enrol(cls: JoinableClass, student: Student): Promise<JoinResult> {
    const outcome = await classes.enrol(cls, student, await freeTrialLimit(cls.teacherId, 'students'));
    if (outcome === 'already-enrolled') throw new AlreadyEnrolledError();
    if (outcome === 'limit-reached') throw new PlanLimitError(STUDENT_LIMIT_REACHED);
    return { className: cls.name, classId: cls.id };
  }

  return {
    listClasses: (owner: Owner, archived: boolean) => classes.listForTeacher(owner, archived),

    getClass: async (owner: Owner, id: string) => orNotFound(await classes.findForTeacher(owner, id)),

    async createClass(owner: Owner, details: ClassDetails): Promise<ClassView> {
      const maxClasses = await freeTrialLimit(owner.teacherId, 'classes');
      for (let attempt = 1; ; attempt++) {
        try {
          const created = await classes.create(owner, details, newJoinCode(), maxClasses);
          if (created === 'limit-reached') throw new PlanLimitError(CLASS_LIMIT_REACHED);
          return created;
        } catch (err) {
          if (!(err instanceof JoinCodeTakenError) || attempt >= JOIN_CODE_ATTEMPTS) throw err;
        }
      }
    },

    updateClass: async (owner: Owner, id: string, details: ClassDetails) =>
      orNotFound(await classes.update(owner, id, details)),

    archiveClass: async (owner: Owner, id: string) => orNotFound(await classes.setArchived(owner, id, true)),

    restoreClass: async (owner: Owner, id: string) => orNotFound(await classes.setArchived(owner, id, false)),

    /** Only the owner deletes a class: a co-teacher is refused (403), anyone else does not find it. */
    async deleteClass(owner: Owner, id: string): Promise<void> {
      const outcome = await classes.delete(owner, id);
      if (outcome === 'not-found') throw new ClassNotFoundError();
      if (outcome === 'not-owner') throw new NotClassOwnerError(ONLY_OWNER_DELETES);
    },

    /** The class's teachers (owner first), for any of them. */
    async listTeachers(caller: Owner, id: string): Promise<ClassTeacher[]> {
      return classes.listTeachers(orNotFound(await classes.findTaught(caller, id)));
    },

    /**
     * The owner adds a co-teacher by email: a teacher of the class's school or district (for an
     * individual account, a teacher of an individual account). Their plan limits are untouched:
     * they count the owner's classes. A school's or district's class invites an address no teacher
     * of it has yet (invitation 'pending': identity mails the district's invitation when the address is
     * at the district's domains and has no account, and the account becomes a co-teacher when it
     * is registered); a student of the district is refused (404 naming `email`), as is, for an
     * individual account, anyone who is not an individual teacher (one answer, whatever the
     * address has elsewhere).
     */
    async addCoTeacher(caller: Owner, id: string, email: string): Promise<ClassTeacher> {
      const cls = orNotFound(await classes.findTaught(caller, id));
      if (!cls.owner) throw new NotClassOwnerError(ONLY_OWNER_ADDS);
      const kind = await classes.tenantKindOf(cls.teacherId);
      const teacherId = await classes.findInvitableTeacher(email, cls.tenantId, kind === 'individual');
      if (!teacherId) {
        if (kind !== 'district' && kind !== 'school') throw new NoInvitableTeacherError();
        if (await classes.isStudentOf(email, cls.tenantId)) throw new NoInvitableTeacherError(STUDENT_NOT_INVITABLE);
        const invited = orNotFound(await classes.inviteCoTeacher(caller, id, email.toLowerCase()));
        if (invited === 'already-invited') throw new AlreadyInvitedError();
        if (invited === 'full') throw new CoTeachersFullError(MAX_CO_TEACHERS);
        return invitationView(invited);
      }
      const outcome = orNotFound(await classes.addCoTeacher(caller, id, teacherId));
      if (outcome === 'already-teacher') throw new AlreadyTeacherError();
      if (outcome === 'full') throw new CoTeachersFullError(MAX_CO_TEACHERS);
      const added = (await classes.listTeachers({ ...cls, coTeacherIds: [teacherId] })).find((t) => t.id === teacherId);
      return added!;
    },

    /**
     * The owner removes a co-teacher or withdraws an invitation; a co-teacher may remove themself
     * (leave the class). The owner is never removed (403), nor may a co-teacher remove another or
     * withdraw an invitation (403).
     */
    async removeCoTeacher(caller: Owner, id: string, teacherId: string): Promise<void> {
      const cls = orNotFound(await classes.findTaught(caller, id));
      if (teacherId === cls.teacherId) throw new NotClassOwnerError(OWNER_STAYS);
      if (!cls.coTeacherIds.includes(teacherId) && teacherId !== caller.teacherId) {
        if (!cls.owner) throw new NotClassOwnerError(ONLY_OWNER_ADDS);
        if (await classes.withdrawInvitation(id, teacherId)) return;
        throw new TeacherNotInClassError();
      }
      if (!cls.owner && teacherId !== caller.teacherId) throw new NotClassOwnerError(ONLY_OWNER_ADDS);
      if (!(await classes.removeCoTeacher(caller, id, teacherId))) throw new TeacherNotInClassError();
    },

    listStudents: async (owner: Owner, id: string): Promise<MemberView[]> =>
      orNotFound(await classes.listMembers(owner, id)),

    async removeStudent(owner: Owner, classId: string, studentId: string): Promise<void> {
      const outcome = await classes.removeMember(owner, classId, studentId);
      if (outcome === 'no-class') throw new ClassNotFoundError();
      if (outcome === 'no-member') throw new StudentNotInClassError();
    },

    /**
     * Join by code: case and surrounding spaces do not matter; archived classes are not found; a
     * class of another tenant is refused when the student's district allows its own classes only.
     */
    async joinByCode(student: Student, typed: string): Promise<JoinResult> {
      const code = normalizeJoinCode(typed);
      const cls = isValidJoinCode(code) ? await classes.findActiveByJoinCode(code) : undefined;
      if (!cls) throw new ClassNotFoundError();
      // A district may keep its students to its own classes; earlier memberships stay.
      if (cls.tenantId !== student.tenantId && (await classes.ownClassesOnly(student.tenantId))) {
        throw new JoinRestrictedError();
      }
      return enrol(cls, student);
    },

    /**
     * A signed-out visitor's check of a code before they sign in: the active class's name, or
     * ClassNotFoundError. Says no more than the join itself would (no id, teacher or tenant).
     */
    async lookUpJoinCode(typed: string): Promise<{ className: string }> {
      const code = normalizeJoinCode(typed);
      const cls = isValidJoinCode(code) ? await classes.findActiveByJoinCode(code) : undefined;
      if (!cls) throw new ClassNotFoundError();
      return { className: cls.name };
    },

    /** Join from the browse list: only active classes of the student's own tenant. */
    async joinDirect(student: Student, classId: string): Promise<JoinResult> {
      const cls = orNotFound(await classes.findActiveInTenant(student.tenantId, classId));
      return enrol(cls, student);
    },

    listEnrolments: (student: Student) => classes.listEnrolments(student),

    /**
     * An LMS course's member reaches the class linked to it (docs/adr/014-lti.md; integrations
     * calls, service token): a student is enrolled (already enrolled is fine), a teacher other than
     * the owner becomes a co-teacher. Only a class of the member's own tenant is found.
     */
    async joinLinked(tenantId: string, classId: string, member: { userId: string; role: 'student' | 'teacher' }) {
      const cls = orNotFound(await classes.findActiveInTenant(tenantId, classId));
      if (member.role === 'student') {
        try {
          await enrol(cls, { tenantId, studentId: member.userId });
          return { classId: cls.id, joined: true };
        } catch (err) {
          if (err instanceof AlreadyEnrolledError) return { classId: cls.id, joined: false };
          throw err;
        }
      }
      if (member.userId === cls.teacherId) return { classId: cls.id, joined: false };
      const outcome = orNotFound(
        await classes.addCoTeacher({ tenantId, teacherId: cls.teacherId }, cls.id, member.userId),
      );
      if (outcome === 'full') throw new CoTeachersFullError(MAX_CO_TEACHERS);
      return { classId: cls.id, joined: outcome !== 'already-teacher' };
    },

    browse: (student: Student) => classes.browse(student, browseLimit),
  };
}
