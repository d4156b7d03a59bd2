// Refusals that end the taking page: a closed assessment (its teacher set it inactive, or its close
// time or the attempt's time limit passed; the server refuses to open, save or submit it with 409
// and one of these codes), one not open yet (before its open time), or one already submitted on another device or tab.
import { isApiError } from '../../api/apiError';

/** Why it cannot be taken: the server's code. */
export type ClosedCode = 'assessment_inactive' | 'assessment_closed' | 'assessment_not_open' | 'time_up';
const CLOSED_CODES = new Set<string>(['assessment_inactive', 'assessment_closed', 'assessment_not_open', 'time_up']);

export function isClosedError(error: unknown): boolean {
  return closedCode(error) !== null;
}

export function closedCode(error: unknown): ClosedCode | null {
  return isApiError(error) && error.status === 409 && CLOSED_CODES.has(error.code ?? '')
    ? (error.code as ClosedCode)
    : null;
}

export function isAlreadySubmittedError(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.code === 'already_submitted';
}

/** A save refused because a time limit was set after the questions were read: they must be read again. */
export function isAttemptNotStartedError(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.code === 'attempt_not_started';
}
