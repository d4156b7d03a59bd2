// QTI 3.0 packages (#31 item 6; docs/adr/013-qti.md): GET /api/assessments/{id}/qti writes an
// assessment out as a content package; POST /api/qti/imports?classId= reads one (or one item's XML)
// into a new draft assessment of that class and answers with it and the import's report.
import { ApiRouter, readRawBody, type Caller } from '@checkpoint/service-kit';
import { z } from 'zod';
import type { QtiUseCases } from '../domain/qti.use-case.ts';
import { idParams } from './assessments.schemas.ts';
import { uuidOr404 } from './ids.ts';

const TEACHERS = ['teacher', 'admin'] as const;
const owner = (caller: Caller) => ({ tenantId: caller.tenantId, teacherId: caller.userId });
export const QTI_IMPORTS_PATH = '/api/qti/imports';

const importQuery = z.object({
  classId: z
    .uuid({ error: 'classId must be the id of one of your classes' })
    .describe('The class the new assessment is made in'),
});

const reportEntrySchema = z.object({
  file: z.string().describe('The file of the package it is in'),
  item: z.string().describe("The item's identifier ('' for the package itself)"),
  reason: z.string(),
  imported: z.boolean().describe('true: the item came in without this; false: the item was left out'),
});
export const qtiImportSchema = z
  .object({
    assessmentId: z.uuid(),
    title: z.string(),
    imported: z.number().int().describe('Questions that came in'),
    report: z.array(reportEntrySchema).describe('What did not come in as it was, with the file and the reason'),
  })
  .meta({ id: 'QtiImport' });

export function qtiRouter(uc: QtiUseCases, packageLimitBytes: number): ApiRouter {
  const router = new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/qti',
        summary:
          'The assessment as a QTI 3.0 content package (application/zip): imsmanifest.xml, an assessment test and an item per question, with their CASE alignments',
        access: TEACHERS,
        params: idParams,
        produces: ['application/zip'],
        errors: [404, 409],
      },
      async ({ caller, params, res }) => {
        const { fileName, bytes } = await uc.exportPackage(owner(caller), uuidOr404(params.id));
        res
          .status(200)
          .type('application/zip')
          .setHeader('Content-Disposition', `attachment; filename="${fileName}"`)
          .send(Buffer.from(bytes));
      },
    )
    .add(
      {
        method: 'post',
        path: QTI_IMPORTS_PATH,
        summary:
          'Import a QTI 3.0 (or 2.1/2.2) content package, or one item as XML, into a new draft assessment of the class: what Checkpoint can hold comes in, the rest is listed in the report with its file and the reason; a package that cannot be read, or holds nothing that can come in, changes nothing (400 naming package)',
        access: TEACHERS,
        query: importQuery,
        status: 201,
        response: qtiImportSchema,
        errors: [413, 415],
      },
      async ({ caller, query, req }) => {
        const bytes = await readRawBody(req, {
          limitBytes: packageLimitBytes,
          what: 'The package',
          expected: 'the QTI package as application/zip (or one item as application/xml)',
        });
        return uc.importPackage(owner(caller), query.classId, bytes);
      },
    );
  // The upload is not JSON: the document says what the body is (ApiRouter documents JSON bodies only).
  const upload = router.paths[QTI_IMPORTS_PATH]?.post;
  if (upload) {
    const file = { type: 'string', format: 'binary' } as const;
    upload.requestBody = {
      required: true,
      description: `A QTI content package (zip with imsmanifest.xml) or one QTI item; at most ${packageLimitBytes} bytes`,
      content: { 'application/zip': { schema: file }, 'application/xml': { schema: file } },
    };
  }
  return router;
}
