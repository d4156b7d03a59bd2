// Messages the web app shows as they are (spec §8) and the typed errors that carry them.
import { ConflictError, NotFoundError, ValidationError } from '@checkpoint/service-kit';

export class AssessmentNotFoundError extends NotFoundError {
  constructor() {
    super('Assessment not found');
  }
}

export class ClassNotFoundError extends NotFoundError {
  constructor() {
    super('Class not found');
  }
}

export class QuestionNotFoundError extends NotFoundError {
  constructor() {
    super('Question not found');
  }
}

export class ResultNotFoundError extends NotFoundError {
  constructor() {
    super('Result not found');
  }
}

export class AlreadySubmittedError extends ConflictError {
  constructor() {
    super('You have already submitted this assessment', 'already_submitted');
  }
}

export class AssessmentInactiveError extends ConflictError {
  constructor() {
    super('This assessment is not active. Ask your teacher to activate it.', 'assessment_inactive');
  }
}

export class NoQuestionsError extends ConflictError {
  constructor() {
    super('This assessment has no questions yet', 'no_questions');
  }
}

export class TooManyQuestionsError extends ConflictError {
  constructor(max: number) {
    super(`An assessment has at most ${max} questions`, 'too_many_questions');
  }
}

export class NoClassSelectedError extends ValidationError {
  constructor() {
    super('No class selected', { classId: 'No class selected' });
  }
}
