// Refusals that end the taking page: a closed assessment (its teacher set it inactive; the server
// refuses to open, save or submit it with 409 and one of these codes), or one already submitted
// on another device or tab.
import { isApiError } from '../../api/apiError';

const CLOSED_CODES = new Set(['assessment_inactive', 'assessment_closed']);

export function isClosedError(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && CLOSED_CODES.has(error.code ?? '');
}

export function isAlreadySubmittedError(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.code === 'already_submitted';
}
