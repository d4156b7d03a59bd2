// Messages the web app shows or matches as they are (spec §8: 'not found', 'Already enrolled').
import { ConflictError, NotFoundError } from '@checkpoint/service-kit';

export const CLASS_NOT_FOUND = 'Class not found';
export const ALREADY_ENROLLED = 'Already enrolled in this class';
export const STUDENT_NOT_IN_CLASS = 'Student not found in this class';

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
