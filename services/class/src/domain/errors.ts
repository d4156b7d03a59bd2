// Messages the web app shows or matches as they are ('not found', 'Already enrolled').
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '@checkpoint/service-kit';
import { FREE_TRIAL_LIMITS } from './plan.ts';

export const CLASS_NOT_FOUND = 'Class not found';
export const ALREADY_ENROLLED = 'Already enrolled in this class';
export const STUDENT_NOT_IN_CLASS = 'Student not found in this class';
// Shown to a student whose district keeps its students to its own classes (docs/security.md, finding 10).
export const JOIN_RESTRICTED =
  'Your district lets you join only its own classes. Ask your teacher for the code of a class in your district.';
export const CLASS_LIMIT_REACHED = `Free Trial limit reached: up to ${FREE_TRIAL_LIMITS.classes} classes. Upgrade your plan to add more.`;
// Shown to the student who tries to join; says whose limit it is and who can lift it.
export const STUDENT_LIMIT_REACHED = `Free Trial limit reached: this class's teacher can have up to ${FREE_TRIAL_LIMITS.students} students in total. Ask your teacher to upgrade their plan.`;

export class ClassNotFoundError extends NotFoundError {
  constructor() {
    super(CLASS_NOT_FOUND);
  }
}

export class StudentNotInClassError extends NotFoundError {
  constructor() {
    super(STUDENT_NOT_IN_CLASS);
  }
}

export class AlreadyEnrolledError extends ConflictError {
  constructor() {
    super(ALREADY_ENROLLED, 'already_enrolled');
  }
}

/** A Free Trial limit (403, code plan_limit): nothing was created. */
export class PlanLimitError extends AppError {
  constructor(message: string) {
    super('forbidden', 'plan_limit', message);
  }
}

/** The student's district allows its own classes only, and this class is another tenant's (403). */
export class JoinRestrictedError extends AppError {
  constructor() {
    super('forbidden', 'join_restricted', JOIN_RESTRICTED);
  }
}

// Co-teachers (issue 30, item 8). One answer for every email the owner cannot add: no account,
// a student, a teacher of another district or school: it says nothing of whether an account
// exists elsewhere (docs/security.md).
export const NO_INVITABLE_TEACHER =
  'No teacher of your school or district has this email. Ask them to sign up with it, then add them.';
export const STUDENT_NOT_INVITABLE = 'This email is a student account of your school or district, not a teacher.';
export const ALREADY_INVITED = 'This email is already invited to teach this class';
export const ALREADY_TEACHER = 'This teacher already teaches this class';
export const ONLY_OWNER_ADDS = "Only the class's owner can add or remove its co-teachers";
export const ONLY_OWNER_DELETES = "Only the class's owner can delete it";
export const OWNER_STAYS = "The class's owner cannot be removed from it";
export const TEACHER_NOT_IN_CLASS = 'Teacher not found in this class';

/** 404 naming `email`: the address is no teacher the owner may add (nor invite). */
export class NoInvitableTeacherError extends AppError {
  constructor(message = NO_INVITABLE_TEACHER) {
    super('not_found', 'not_invitable', message, { email: message });
  }
}

export class AlreadyInvitedError extends ConflictError {
  constructor() {
    super(ALREADY_INVITED, 'already_invited');
  }
}

export class TeacherNotInClassError extends NotFoundError {
  constructor() {
    super(TEACHER_NOT_IN_CLASS);
  }
}

export class AlreadyTeacherError extends ConflictError {
  constructor() {
    super(ALREADY_TEACHER, 'already_teacher');
  }
}

export class CoTeachersFullError extends ConflictError {
  constructor(max: number) {
    super(`A class can have at most ${max} co-teachers`, 'co_teachers_full');
  }
}

export class NotClassOwnerError extends ForbiddenError {}
