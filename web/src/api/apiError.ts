// Maps HTTP failures to the one error shape the screens show: "<status>: <response text or status text>".
export interface ApiError {
  /** HTTP status; 0 when the request never got an answer. */
  status: number;
  /** `${status}: ${responseText}` — the error text shown in the UI. */
  message: string;
  /** The `message` of a JSON error body, shown in toasts as the server message. */
  serverMessage?: string;
  code?: string;
  fields?: Record<string, string>;
}

interface ErrorBody {
  message?: unknown;
  code?: unknown;
  fields?: unknown;
}

export function errorFromResponse(status: number, statusText: string, bodyText: string): ApiError {
  const error: ApiError = { status, message: `${status}: ${bodyText || statusText}` };
  if (!bodyText) return error;
  let body: ErrorBody | undefined;
  try {
    body = JSON.parse(bodyText) as ErrorBody;
  } catch {
    return error;
  }
  if (body && typeof body === 'object') {
    if (typeof body.message === 'string' && body.message) error.serverMessage = body.message;
    if (typeof body.code === 'string') error.code = body.code;
    if (body.fields && typeof body.fields === 'object') {
      error.fields = body.fields as Record<string, string>;
    }
  }
  return error;
}

export function networkError(cause: unknown): ApiError {
  const text = cause instanceof Error ? cause.message : 'Network error';
  return { status: 0, message: `0: ${text}` };
}

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).status === 'number' &&
    typeof (value as ApiError).message === 'string'
  );
}

/** An error starting '401: ' and containing 'Unauthorized' means the session is gone. */
export function isUnauthorizedError(value: unknown): boolean {
  if (!isApiError(value)) return false;
  return value.message.startsWith('401: ') && value.message.includes('Unauthorized');
}

/** The text a toast shows: the server's JSON message when there is one, else the fallback. */
export function serverMessageOr(value: unknown, fallback: string): string {
  if (isApiError(value) && value.serverMessage) return value.serverMessage;
  return fallback;
}

/**
 * A plan's limit refused the request (code `plan_limit`): the server's message says which limit and
 * what to do, so it shows even where a screen has a fixed failure text, which would mislead.
 */
export function planLimitMessage(value: unknown): string | undefined {
  return isApiError(value) && value.code === 'plan_limit' && value.serverMessage ? value.serverMessage : undefined;
}

/** A failure worth trying again later: no answer at all, too many requests, or the server unavailable for now. */
export function isRetryableError(value: unknown): boolean {
  return isApiError(value) && [0, 429, 502, 503, 504].includes(value.status);
}
