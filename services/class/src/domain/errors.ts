// Messages the web app shows or matches as they are ('not found', 'Already enrolled').
import { AppError, ConflictError, NotFoundError } from '@checkpoint/service-kit';
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
