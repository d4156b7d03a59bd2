// The one fetch used by the RTK Query api slice: cookies always, CSRF header on writes, errors
// shaped by apiError.ts.
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { errorFromResponse, isUnauthorizedError, networkError, type ApiError } from './apiError';
import { sessionExpired } from '../session/authSlice';

export interface ApiRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Query parameters (the generated endpoints' way); absent values are left out. */
  params?: Record<string, unknown>;
}

export const CSRF_COOKIE = 'cp_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

export function readCookie(name: string, cookieString: string = document.cookie): string | undefined {
  for (const part of cookieString.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The gateway sets the CSRF cookie on any response; make one cheap GET when it is still missing. */
async function csrfToken(signal: AbortSignal): Promise<string | undefined> {
  const existing = readCookie(CSRF_COOKIE);
  if (existing) return existing;
  try {
    await fetch('/api/auth/user', { credentials: 'include', signal });
  } catch {
    // The write below will fail and report the real error.
  }
  return readCookie(CSRF_COOKIE);
}

function withQuery(path: string, params: Record<string, unknown> | undefined): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

export async function request(
  args: ApiRequest | string,
  signal: AbortSignal,
): Promise<{ data: unknown } | { error: ApiError }> {
  const { url: path, method = 'GET', body, params } = typeof args === 'string' ? { url: args } : args;
  const url = withQuery(path, params);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const token = await csrfToken(signal);
    if (token) headers[CSRF_HEADER] = token;
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    return { error: networkError(cause) };
  }
  const text = await response.text();
  if (!response.ok) {
    return { error: errorFromResponse(response.status, response.statusText, text) };
  }
  if (!text) return { data: null };
  try {
    return { data: JSON.parse(text) as unknown };
  } catch {
    return { data: text };
  }
}

/** Endpoints whose 401 means "signed out", not "session expired". */
const SILENT_401_ENDPOINTS = new Set(['getCurrentUser']);

export const appBaseQuery: BaseQueryFn<ApiRequest | string, unknown, ApiError> = async (args, api) => {
  const result = await request(args, api.signal);
  if ('error' in result && isUnauthorizedError(result.error) && !SILENT_401_ENDPOINTS.has(api.endpoint)) {
    api.dispatch(sessionExpired());
  }
  return result;
};
