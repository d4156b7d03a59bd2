// Messages the web app shows as they are, and the typed errors that carry them (each with its
// kind; packages/service-kit/src/error-status.ts gives the HTTP status).
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

/** Before the assessment's open time (its window, set by the teacher). */
export class AssessmentNotOpenError extends ConflictError {
  constructor() {
    super('This assessment is not open yet: come back at the time your teacher set.', 'assessment_not_open');
  }
}

/** After the assessment's close time: no answer is saved (what was saved is submitted). */
export class AssessmentWindowClosedError extends ConflictError {
  constructor() {
    super(
      'This assessment has closed: answers can no longer be saved. Any answers you saved before it closed are submitted for you.',
      'assessment_closed',
    );
  }
}

/** A timed attempt past its time limit: no answer is saved (what was saved is submitted). */
export class TimeUpError extends ConflictError {
  constructor() {
    super('Your time is up: answers can no longer be saved. Any answers you saved are submitted for you.', 'time_up');
  }
}

/** A save to a timed assessment whose questions the student has not opened (the clock starts there). */
export class AttemptNotStartedError extends ConflictError {
  constructor() {
    super('Open the assessment first: its time limit starts when you do.', 'attempt_not_started');
  }
}

export class AssessmentInactiveError extends ConflictError {
  constructor() {
    super(
      'This assessment is closed: answers can no longer be saved or submitted. Ask your teacher to reopen it.',
      'assessment_inactive',
    );
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

/**
 * Results keep the score they were given (migrations/004), so once a student has submitted, what
 * decides a score (keys, alternatives, options, type, points, which questions there are) stays as
 * it is for every student of the class. Texts may still be corrected and questions reordered.
 */
export class HasSubmissionsError extends ConflictError {
  constructor() {
    super(
      'Students have already submitted this assessment, so its answer keys, points and questions can no longer change. You can still correct the wording or the order.',
      'has_submissions',
    );
  }
}

/** A class's copy of the district's common assessment: its questions stay as the district published them. */
export class CommonAssessmentLockedError extends ConflictError {
  constructor() {
    super(
      "This is your district's common assessment: its questions are locked and cannot be changed.",
      'common_assessment_locked',
    );
  }
}

/** Copying an assessment whose questions are still being generated would copy none. */
export class GenerationPendingError extends ConflictError {
  constructor() {
    super('Its questions are still being generated: copy it once they are ready', 'generation_pending');
  }
}

/** A retake past the attempts the assessment allows (maxAttempts; 1: none). */
export class NoRetakeAllowedError extends ConflictError {
  constructor(maxAttempts: number) {
    super(
      maxAttempts <= 1
        ? 'This assessment allows no retake (Attempts allowed is 1): raise Attempts allowed to grant one'
        : `This student has used all ${maxAttempts} attempts this assessment allows`,
      'no_attempts_left',
    );
  }
}

/** A retake or reopening of a result while the student's next attempt is under way (not yet submitted). */
export class AttemptOpenError extends ConflictError {
  constructor() {
    super("The student's next attempt is already open: it can be reopened or retaken once submitted", 'attempt_open');
  }
}

/** A retake or reopening of an earlier attempt: only the student's current attempt can be. */
export class NotCurrentAttemptError extends ConflictError {
  constructor() {
    super(
      'This result is an earlier attempt: only the latest attempt can be reopened or retaken',
      'not_current_attempt',
    );
  }
}
