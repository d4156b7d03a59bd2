// QTI 3.0 packages (assessment's /api/assessments/{id}/qti and /api/qti/imports): the export is a
// link (a same-origin GET that downloads the zip), the import's body is the file itself, not JSON,
// so it is sent here rather than by the generated endpoint (which would send JSON).
import type { ApiError } from '../../api/apiError';
import { postFile } from '../../api/postFile';
import type { PostApiQtiImportsApiResponse } from '../../api/generated/endpoints';
import { assessmentsApi } from './assessmentsApi';

/** The import's answer: the new draft, how many questions came in, and what did not come in as it was. */
export type QtiImport = PostApiQtiImportsApiResponse;
export type QtiReportEntry = QtiImport['report'][number];

/** Where an assessment's QTI 3.0 package downloads from (a link, not an endpoint). */
export const qtiExportPath = (assessmentId: string) => `/api/assessments/${encodeURIComponent(assessmentId)}/qti`;

/** What the import takes: a zip package, or one item's XML. */
export const QTI_ACCEPT = '.zip,.xml';

/** POSTs the package as the request body (application/zip, or application/xml for one item). */
export function uploadQti(file: File, classId: string): Promise<{ data: QtiImport } | { error: ApiError }> {
  const type = /\.xml$/i.test(file.name) ? 'application/xml' : 'application/zip';
  return postFile<QtiImport>(`/api/qti/imports?classId=${encodeURIComponent(classId)}`, file, type);
}

export const qtiApi = assessmentsApi.enhanceEndpoints({ addTagTypes: ['Class'] }).injectEndpoints({
  endpoints: (build) => ({
    importQti: build.mutation<QtiImport, { file: File; classId: string }>({
      queryFn: ({ file, classId }) => uploadQti(file, classId),
      // A new assessment: the lists and the class's count follow.
      invalidatesTags: (result, _e, { classId }) =>
        result
          ? [
              { type: 'Assessment', id: 'LIST' },
              { type: 'Class', id: classId },
            ]
          : [],
    }),
  }),
});

export const { useImportQtiMutation } = qtiApi;
