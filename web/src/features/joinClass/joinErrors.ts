// Joining by code: the error text decides the message of the destructive 'Error' toast (in the
// interface's language; the constants are the English texts).
import { i18n } from '../../i18n/i18n';
import { isApiError, planLimitMessage } from '../../api/apiError';

export const JOIN_NOT_FOUND = 'Class not found. Please check the join code and try again.';
export const JOIN_ALREADY_ENROLLED = "You're already enrolled in this class.";
export const JOIN_FAILED = 'Failed to join class. Please check the join code and try again.';
/** Code join_restricted: the student's district allows its own classes only (the server says so). */
export const JOIN_RESTRICTED =
  'Your district lets you join only its own classes. Ask your teacher for the code of a class in your district.';

export function joinErrorMessage(error: unknown): string {
  const text = isApiError(error) ? error.message : error instanceof Error ? error.message : String(error ?? '');
  const limit = planLimitMessage(error);
  if (limit) return limit;
  if (isApiError(error) && error.code === 'join_restricted')
    return error.serverMessage || i18n.t('common:join.restricted');
  const lower = text.toLowerCase();
  if (text.includes('404') || lower.includes('not found')) return i18n.t('common:join.notFound');
  if (lower.includes('already enrolled')) return i18n.t('common:join.alreadyEnrolled');
  return i18n.t('common:join.failed');
}
