import { vi } from 'vitest';
import { jsonResponse } from './test-utils';

export type Route = (init: RequestInit | undefined) => Response | Promise<Response>;

/** Stubs global fetch with routes keyed "METHOD /path"; unknown routes answer 404. Returns the mock. */
export function stubFetch(routes: Record<string, Route>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const key = `${init?.method ?? 'GET'} ${url}`;
    const route = routes[key];
    return route ? route(init) : jsonResponse(404, { message: 'Not found', code: 'NOT_FOUND' });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

export const TEACHER = {
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  role: 'teacher' as const,
  profileImageUrl: null,
  createdAt: '2024-03-05T10:00:00.000Z',
  tenantId: 't1',
  accountType: 'individual' as const,
  preferences: { emailNotifications: false, assessmentReminders: false, studentSubmissions: true, darkMode: false },
};

export const STUDENT = { ...TEACHER, id: 'u2', firstName: 'Sam', lastName: 'Student', role: 'student' as const };
