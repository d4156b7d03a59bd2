// OneRoster imports (identity's /api/district/roster/imports): upload a zip (or one CSV) to
// preview, apply in the background, poll the progress. Endpoints and types are generated from the
// gateway's OpenAPI document (api/generated), but for the upload: its body is the file, not JSON.
import { generatedApi } from '../../api/generated/endpoints';
import type { RosterImportDetail, RosterRowError } from '../../api/generated/endpoints';
import type { ApiError } from '../../api/apiError';
import { postFile } from '../../api/postFile';

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

/** An import's path: its error list downloads from `${path}/errors.csv` (a link, not an endpoint). */
export const rosterImportPath = (id: string) => `/api/district/roster/imports/${encodeURIComponent(id)}`;

/** An import with its first row errors (the upload's and GET /imports/{id}'s answer). */
export type RosterImport = RosterImportDetail;
export type FileCounts = RosterImport['counts'][string];
export type { RosterRowError };

/** The file a lone CSV is, from its name (users.csv → users); undefined for a zip or an unknown name. */
export function rosterFileOf(name: string): RosterFileName | undefined {
  const base = name.replace(/^.*[\\/]/, '').replace(/\.csv$/i, '');
  return ROSTER_FILES.find((f) => f.toLowerCase() === base.toLowerCase());
}

/** POSTs the file as the request body (not JSON): a zip package, or one CSV with ?file=. */
export function uploadRoster(
  file: File,
  csvFile?: RosterFileName,
): Promise<{ data: RosterImport } | { error: ApiError }> {
  const isCsv = /\.csv$/i.test(file.name);
  const url = `/api/district/roster/imports${isCsv && csvFile ? `?file=${csvFile}` : ''}`;
  return postFile<RosterImport>(url, file, isCsv ? 'text/csv' : 'application/zip');
}

const tagged = generatedApi.enhanceEndpoints({
  addTagTypes: ['RosterImport'],
  endpoints: {
    getRosterImport: { providesTags: (_r, _e, { id }) => [{ type: 'RosterImport', id }] },
    applyRosterImport: { invalidatesTags: (_r, _e, id) => [{ type: 'RosterImport', id }] },
  },
});

export const rosterApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    uploadRoster: build.mutation<RosterImport, { file: File; csvFile?: RosterFileName }>({
      queryFn: ({ file, csvFile }) => uploadRoster(file, csvFile),
    }),
  }),
});

export const { useUploadRosterMutation, useGetRosterImportQuery, useApplyRosterImportMutation } = rosterApi;
