// Messages the web app shows as they are.
import { ConflictError, UnauthorizedError } from '@checkpoint/service-kit';

export const EMAIL_TAKEN = 'An account with this email already exists';
export const INVALID_CREDENTIALS = 'Invalid email or password';

export class EmailTakenError extends ConflictError {
  constructor() {
    super(EMAIL_TAKEN, 'email_taken');
  }
}

export class InvalidCredentialsError extends UnauthorizedError {
  constructor() {
    super(INVALID_CREDENTIALS);
  }
}
