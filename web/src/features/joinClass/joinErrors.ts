// Joining by code: the error text decides the message of the destructive 'Error' toast.
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
  if (isApiError(error) && error.code === 'join_restricted') return error.serverMessage || JOIN_RESTRICTED;
  const lower = text.toLowerCase();
  if (text.includes('404') || lower.includes('not found')) return JOIN_NOT_FOUND;
  if (lower.includes('already enrolled')) return JOIN_ALREADY_ENROLLED;
  return JOIN_FAILED;
}
