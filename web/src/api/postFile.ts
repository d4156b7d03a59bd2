// An upload whose request body is the file itself, not JSON (a roster package, a QTI package): the
// RTK Query base query sends JSON, so these POST here, with the session's cookies and the CSRF
// header as every state-changing call (fetched first when the page has no CSRF cookie yet).
import { errorFromResponse, networkError, type ApiError } from './apiError';
import { CSRF_COOKIE, CSRF_HEADER, readCookie } from './baseQuery';

export async function postFile<T>(
  url: string,
  file: File,
  contentType: string,
): Promise<{ data: T } | { error: ApiError }> {
  if (!readCookie(CSRF_COOKIE)) {
    try {
      await fetch('/api/auth/user', { credentials: 'include' });
    } catch {
      // The upload below reports the real error.
    }
  }
  const token = readCookie(CSRF_COOKIE);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: {
        Accept: 'application/json',
        'Content-Type': contentType,
        ...(token ? { [CSRF_HEADER]: token } : {}),
      },
      body: file,
    });
  } catch (cause) {
    return { error: networkError(cause) };
  }
  const text = await response.text();
  if (!response.ok) return { error: errorFromResponse(response.status, response.statusText, text) };
  return { data: JSON.parse(text) as T };
}
