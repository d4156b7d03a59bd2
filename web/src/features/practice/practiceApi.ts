// Practice calls of the generation service (spec §7): material per assessment and type with its
// completion, and result-based practice built from a student's wrong answers.
import { apiSlice } from '../../api/apiSlice';
import type { PracticeType, QuestionType } from '../assessments/assessmentsApi';
import { studentApi } from '../student/studentApi';

/** As a student gets it: no answer key (the server scores the answers). */
export interface PracticeQuestion {
  id: string;
  question: string;
  type: QuestionType;
  options: string[] | string;
}

export interface PracticeMaterial {
  type: PracticeType;
  provider: string;
  /** Changes when the teacher edits the lesson; sent back with the answers. */
  version: string;
  reading: string;
  questions: PracticeQuestion[];
}

export interface SupportContent {
  resultId: string;
  assessmentId: string;
  performanceLevel: string;
  type: PracticeType;
  provider: string;
  reading: string;
  questions: { question: string; type: QuestionType; options: string[] | string }[];
  lastAttempt: { score: number; passed: boolean } | null;
}

export interface PracticeScore {
  score: number;
  correct: number;
  total: number;
  passed: boolean;
  message: string;
}

export const practiceApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getSupportMaterial: build.query<PracticeMaterial, { assessmentId: string; type: PracticeType }>({
      query: ({ assessmentId, type }) =>
        `/api/assessments/${encodeURIComponent(assessmentId)}/support-material/${type}`,
    }),
    completeSupport: build.mutation<
      PracticeScore,
      { assessmentId: string; type: PracticeType; responses: Record<string, string>; version: string }
    >({
      query: ({ assessmentId, ...body }) => ({
        url: `/api/assessments/${encodeURIComponent(assessmentId)}/support-completion`,
        method: 'POST',
        body,
      }),
      // Spec §7: a completion refreshes /api/student/results (the level may have been raised).
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        void dispatch(
          studentApi.endpoints.getStudentResults.initiate(undefined, { subscribe: false, forceRefetch: true }),
        );
      },
    }),
    getSupportContent: build.query<SupportContent, string>({
      query: (resultId) => `/api/support-content/${encodeURIComponent(resultId)}`,
    }),
    submitSupportContent: build.mutation<PracticeScore, { resultId: string; answers: Record<string, string> }>({
      query: ({ resultId, answers }) => ({
        url: `/api/support-content/${encodeURIComponent(resultId)}/submit`,
        method: 'POST',
        body: { answers },
      }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        void dispatch(
          studentApi.endpoints.getStudentResults.initiate(undefined, { subscribe: false, forceRefetch: true }),
        );
      },
    }),
    restartSupportContent: build.mutation<{ message: string }, string>({
      query: (resultId) => ({ url: `/api/support-content/${encodeURIComponent(resultId)}/restart`, method: 'POST' }),
    }),
  }),
});

export const {
  useGetSupportMaterialQuery,
  useCompleteSupportMutation,
  useGetSupportContentQuery,
  useSubmitSupportContentMutation,
  useRestartSupportContentMutation,
} = practiceApi;
