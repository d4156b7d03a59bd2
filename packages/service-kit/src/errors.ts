// Typed errors thrown by handlers. An error says what kind of failure it is, not how HTTP spells
// it: one mapping (error-status.ts) gives the kind's status, and one middleware (http.ts) the
// error's JSON body.
import { HTTP_STATUS_OF } from './error-status.ts';

/** The kinds of failure a handler reports (http.ts gives each its HTTP status). */
export const ERROR_KINDS = [
  'invalid',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'too_large',
  'unsupported_media_type',
  'unprocessable',
  'too_many',
  'internal',
  'unavailable',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
    this.status = HTTP_STATUS_OF[kind];
  }

  /**
   * The HTTP status of the error's kind (error-status.ts), for what speaks HTTP outside the
   * middleware. A plain property: Express's body parser sets `status` on an error thrown in it.
   */
  readonly status: number;
}

export class ValidationError extends AppError {
  constructor(message: string, fields?: Record<string, string>) {
    super('invalid', 'validation_failed', message, fields);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthorized') {
    super('unauthorized', 'unauthorized', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden') {
    super('forbidden', 'forbidden', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super('not_found', 'not_found', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super('conflict', code, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('too_many', 'rate_limited', message);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
  ) {
    super('unavailable', 'unavailable', message);
  }
}
