// OneRoster CSV imports of a district (/api/district/roster/imports): upload → preview (every row
// validated, nothing applied) → apply in the background with progress to poll. Admins only, always
// the caller's own district (another district's import id answers 404).
//
// The upload is the request body itself: a zip package (`Content-Type: application/zip`) or one CSV
// file (`Content-Type: text/csv` and `?file=users`, `roles`, `classes`…). It has its own size limit,
// ROSTER_UPLOAD_LIMIT_BYTES, at the gateway and here.
import { z } from 'zod';
import { ApiRouter, readRawBody } from '@checkpoint/service-kit';
import { ROSTER_FILES } from '../domain/roster/oneroster.ts';
import { errorsCsv, type RosterImports } from '../domain/roster/roster-import.use-case.ts';

const ADMIN = ['admin'] as const;
export const ROSTER_IMPORTS_PATH = '/api/district/roster/imports';

const counts = z
  .object({
    rows: z.number().int(),
    new: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    deleted: z.number().int(),
    read: z.number().int().describe('Rows only read for the other files (roles, courses, orgs, academic sessions)'),
    invalid: z.number().int(),
    dropped: z
      .number()
      .int()
      .describe('Memberships ending without a row of their own (a bulk enrollments file no longer lists them)'),
  })
  .describe('Each row counted once: new + updated + unchanged + deleted + read + invalid = rows');

const rowError = z
  .object({
    file: z.string(),
    line: z.number().int().describe('Line of the file (the header is line 1); 0 when found while applying'),
    sourcedId: z.string().nullable(),
    field: z.string().nullable(),
    message: z.string(),
  })
  .meta({ id: 'RosterRowError' });

export const rosterImportSchema = z
  .object({
    id: z.uuid(),
    mode: z.enum(['bulk', 'delta']),
    status: z.enum(['previewed', 'running', 'done', 'failed']),
    progress: z.object({ done: z.number().int(), total: z.number().int() }),
    counts: z.record(z.string(), counts).describe('Per file (users, roles, classes, enrollments…)'),
    errorCount: z.number().int(),
    failure: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'RosterImport' });

const withErrors = rosterImportSchema.extend({ errors: z.array(rowError) }).meta({ id: 'RosterImportDetail' });

const uploadQuery = z.object({
  file: z
    .enum(ROSTER_FILES, { error: `file must be one of ${ROSTER_FILES.join(', ')}` })
    .optional()
    .describe('For a single CSV upload: which OneRoster file it is (absent: the body is a zip package)'),
  mode: z
    .enum(['bulk', 'delta'], { error: 'mode must be bulk or delta' })
    .optional()
    .describe('For a single CSV upload: bulk (default) or delta'),
});

const idParams = z.object({ id: z.uuid({ error: 'id must be a UUID' }) });
const errorsQuery = z.object({
  errorsOffset: z.coerce.number({ error: 'errorsOffset must be a number' }).int().min(0).default(0),
  errorsLimit: z.coerce
    .number({ error: 'errorsLimit must be a number' })
    .int()
    .min(1, 'errorsLimit must be at least 1')
    .max(1000, 'errorsLimit must be at most 1000')
    .default(100),
});

export function rosterRouter(imports: RosterImports, uploadLimitBytes: number): ApiRouter {
  const router = new ApiRouter()
    .add(
      {
        method: 'post',
        path: ROSTER_IMPORTS_PATH,
        summary:
          'Upload a OneRoster 1.2 CSV roster (zip package as application/zip, or one CSV with ?file=): validates every row and stores a plan to preview; nothing is applied yet',
        access: ADMIN,
        query: uploadQuery,
        status: 201,
        response: withErrors,
        errors: [404, 413, 415, 422, 429],
      },
      async ({ caller, query, req }) => {
        const bytes = await readRawBody(req, {
          limitBytes: uploadLimitBytes,
          what: 'The roster',
          expected: 'the roster as application/zip or text/csv',
        });
        return imports.preview(caller, {
          bytes,
          ...(query.file ? { file: query.file } : {}),
          ...(query.mode ? { mode: query.mode } : {}),
        });
      },
    )
    .add(
      {
        method: 'get',
        path: ROSTER_IMPORTS_PATH,
        summary: 'The district’s recent roster imports, newest first',
        access: ADMIN,
        response: z.object({ imports: z.array(rosterImportSchema) }),
      },
      async ({ caller }) => ({ imports: await imports.list(caller.tenantId, 20) }),
    )
    .add(
      {
        method: 'get',
        path: `${ROSTER_IMPORTS_PATH}/:id`,
        summary: 'A roster import: status, progress, counts per file and a page of its error rows',
        access: ADMIN,
        params: idParams,
        query: errorsQuery,
        response: withErrors,
        errors: [404],
      },
      ({ caller, params, query }) => imports.get(caller.tenantId, params.id, query.errorsOffset, query.errorsLimit),
    )
    .add(
      {
        method: 'get',
        path: `${ROSTER_IMPORTS_PATH}/:id/errors.csv`,
        summary: 'Every error row of a roster import, as CSV (file,line,sourcedId,field,message)',
        access: ADMIN,
        params: idParams,
        produces: ['text/csv'],
        errors: [404],
      },
      async ({ caller, params, res }) => {
        const csv = errorsCsv(await imports.allErrors(caller.tenantId, params.id));
        res
          .status(200)
          .type('text/csv; charset=utf-8')
          .setHeader('Content-Disposition', `attachment; filename="roster-errors-${params.id}.csv"`)
          .send(csv);
      },
    )
    .add(
      {
        method: 'post',
        path: `${ROSTER_IMPORTS_PATH}/:id/apply`,
        summary:
          'Apply a previewed roster import in the background (poll GET …/imports/{id} for progress); a failed one may be applied again',
        access: ADMIN,
        params: idParams,
        status: 202,
        response: rosterImportSchema,
        errors: [404, 409],
      },
      ({ caller, params }) => imports.apply(caller, params.id),
    );
  // The upload is not JSON: the document says what the body is (ApiRouter documents JSON bodies only).
  const upload = router.paths[ROSTER_IMPORTS_PATH]?.post;
  if (upload) {
    const file = { type: 'string', format: 'binary' } as const;
    upload.requestBody = {
      required: true,
      description: `A OneRoster zip package, or one CSV file named by ?file=; at most ${uploadLimitBytes} bytes`,
      content: { 'application/zip': { schema: file }, 'text/csv': { schema: file } },
    };
  }
  return router;
}
