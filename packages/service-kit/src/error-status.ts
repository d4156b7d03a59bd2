// The one mapping of an error's kind (errors.ts) to its HTTP status: read by the error middleware
// (http.ts), and by AppError's `status` for whatever else speaks HTTP for an error (the gateway's
// own refusals, a route that answers a refusal itself).
import type { ErrorKind } from './errors.ts';

export const HTTP_STATUS_OF = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many: 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<ErrorKind, number>;
