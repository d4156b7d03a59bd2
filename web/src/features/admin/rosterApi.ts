// OneRoster imports (identity's /api/district/roster/imports): upload a zip (or one CSV) to
// preview, apply in the background, poll the progress.
import { apiSlice } from '../../api/apiSlice';
import { errorFromResponse, networkError, type ApiError } from '../../api/apiError';
import { CSRF_COOKIE, CSRF_HEADER, readCookie } from '../../api/baseQuery';

export const ROSTER_FILES = [
  'users',
  'roles',
  'classes',
  'courses',
  'enrollments',
  'orgs',
  'academicSessions',
] as const;
export type RosterFileName = (typeof ROSTER_FILES)[number];

export interface FileCounts {
  rows: number;
  new: number;
  updated: number;
  unchanged: number;
  deleted: number;
  invalid: number;
}

export interface RosterRowError {
  file: string;
  line: number;
  sourcedId: string | null;
  field: string | null;
  message: string;
}

export interface RosterImport {
  id: string;
  mode: 'bulk' | 'delta';
  status: 'previewed' | 'running' | 'done' | 'failed';
  progress: { done: number; total: number };
  counts: Partial<Record<string, FileCounts>>;
  errorCount: number;
  failure: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  errors: RosterRowError[];
}

export const rosterImportPath = (id: string) => `/api/district/roster/imports/${id}`;

/** The file a lone CSV is, from its name (users.csv → users); undefined for a zip or an unknown name. */
export function rosterFileOf(name: string): RosterFileName | undefined {
  const base = name.replace(/^.*[\\/]/, '').replace(/\.csv$/i, '');
  return ROSTER_FILES.find((f) => f.toLowerCase() === base.toLowerCase());
}

/** POSTs the file as the request body (not JSON): a zip package, or one CSV with ?file=. */
export async function uploadRoster(
  file: File,
  csvFile?: RosterFileName,
): Promise<{ data: RosterImport } | { error: ApiError }> {
  if (!readCookie(CSRF_COOKIE)) {
    try {
      await fetch('/api/auth/user', { credentials: 'include' });
    } catch {
      // The upload below reports the real error.
    }
  }
  const token = readCookie(CSRF_COOKIE);
  const isCsv = /\.csv$/i.test(file.name);
  const url = `/api/district/roster/imports${isCsv && csvFile ? `?file=${csvFile}` : ''}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: {
        Accept: 'application/json',
        'Content-Type': isCsv ? 'text/csv' : 'application/zip',
        ...(token ? { [CSRF_HEADER]: token } : {}),
      },
      body: file,
    });
  } catch (cause) {
    return { error: networkError(cause) };
  }
  const text = await response.text();
  if (!response.ok) return { error: errorFromResponse(response.status, response.statusText, text) };
  return { data: JSON.parse(text) as RosterImport };
}

const tagged = apiSlice.enhanceEndpoints({ addTagTypes: ['RosterImport'] });

export const rosterApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    uploadRoster: build.mutation<RosterImport, { file: File; csvFile?: RosterFileName }>({
      queryFn: ({ file, csvFile }) => uploadRoster(file, csvFile),
    }),
    getRosterImport: build.query<RosterImport, string>({
      query: (id) => rosterImportPath(id),
      providesTags: (_r, _e, id) => [{ type: 'RosterImport', id }],
    }),
    applyRosterImport: build.mutation<Omit<RosterImport, 'errors'>, string>({
      query: (id) => ({ url: `${rosterImportPath(id)}/apply`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'RosterImport', id }],
    }),
  }),
});

export const { useUploadRosterMutation, useGetRosterImportQuery, useApplyRosterImportMutation } = rosterApi;
