// Practice calls of the generation service: material per assessment and type with its
// completion, and result-based practice built from a student's wrong answers. Endpoints and types
// are generated from the gateway's OpenAPI document (api/generated).
import { generatedApi } from '../../api/generated/endpoints';
import type { PracticeMaterial, PracticeScore, SupportContent } from '../../api/generated/endpoints';
import { studentApi } from '../student';

export type { PracticeMaterial, PracticeScore, SupportContent };
/** As a student gets it: no answer key (the server scores the answers). */
export type PracticeQuestion = PracticeMaterial['questions'][number];

/** A completion refreshes /api/student/results (the level may have been raised). */
async function refreshResults(
  _arg: unknown,
  { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<unknown> },
) {
  try {
    await queryFulfilled;
  } catch {
    return;
  }
  void dispatch(studentApi.endpoints.getStudentResults.initiate(undefined, { subscribe: false, forceRefetch: true }));
}

export const practiceApi = generatedApi.enhanceEndpoints({
  endpoints: {
    completeSupport: { onQueryStarted: refreshResults },
    submitSupportContent: { onQueryStarted: refreshResults },
  },
});

export const {
  useGetSupportMaterialQuery,
  useCompleteSupportMutation,
  useGetSupportContentQuery,
  useSubmitSupportContentMutation,
  useRestartSupportContentMutation,
} = practiceApi;
