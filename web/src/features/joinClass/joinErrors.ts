// Spec §8 Join by code: the error text decides the message of the destructive 'Error' toast.
import { isApiError, planLimitMessage } from '../../api/apiError';

export const JOIN_NOT_FOUND = 'Class not found. Please check the join code and try again.';
export const JOIN_ALREADY_ENROLLED = "You're already enrolled in this class.";
export const JOIN_FAILED = 'Failed to join class. Please check the join code and try again.';

export function joinErrorMessage(error: unknown): string {
  const text = isApiError(error) ? error.message : error instanceof Error ? error.message : String(error ?? '');
  const limit = planLimitMessage(error);
  if (limit) return limit;
  const lower = text.toLowerCase();
  if (text.includes('404') || lower.includes('not found')) return JOIN_NOT_FOUND;
  if (lower.includes('already enrolled')) return JOIN_ALREADY_ENROLLED;
  return JOIN_FAILED;
}
