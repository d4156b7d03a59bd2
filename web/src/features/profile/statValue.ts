import { isApiError } from '../../api/apiError';

export const UNKNOWN_STAT = '—';

interface ListQuery {
  data?: readonly unknown[] | undefined;
  error?: unknown;
  isLoading: boolean;
}

/** A count from a list call; '—' while loading or when it failed (never an invented number). */
export function statValue(query: ListQuery): string {
  if (query.data && !query.error) return String(query.data.length);
  return UNKNOWN_STAT;
}

/** 503/404 mean "that service is not deployed yet": show '—' quietly. 401 is handled globally. */
export function isQuietStatError(error: unknown): boolean {
  return isApiError(error) && (error.status === 503 || error.status === 404 || error.status === 401);
}
