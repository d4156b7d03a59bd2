// Assessment and generation service calls for the assessment screens. Endpoints and
// types are generated from the gateway's OpenAPI document (api/generated); this file adds their
// cache tags and the few names the screens use.
import { generatedApi } from '../../api/generated/endpoints';
import type {
  AddQuestionApiArg,
  Assessment,
  CreateAssessmentApiArg,
  GenerationJob,
  Question,
  Recommendation,
  Response,
  ResultDetail,
  ReviewItem,
  StudentAssessment,
  UpdateAssessmentApiArg,
} from '../../api/generated/endpoints';

export type { Assessment, GenerationJob, Question, Recommendation, StudentAssessment };
export type QuestionType = Question['questionType'];
export type PerformanceLevel = ResultDetail['performanceLevel'];
export type PracticeType = Recommendation['type'];
/** draft until assigned; assigned while active; closed when deactivated after being assigned. */
export type LifecycleStatus = Assessment['status'];
/** A student's saved answer (GET /api/assessments/{id}/responses). */
export type SavedResponse = Response;
/** A submitted result with each question, the answer given and the key (GET /api/results/{id}, the submit reply). */
export type Result = ResultDetail;
/** One question of a result as marked (points earned, feedback, waiting for review). */
export type ResultQuestion = ResultDetail['questions'][number];
/** A short answer waiting for the teacher's review (GET /api/assessments/{id}/to-review). */
export type { ReviewItem };
export type CreateAssessmentRequest = CreateAssessmentApiArg;
export type QuestionInput = AddQuestionApiArg['body'];
/** The details form's body (the other body of PUT /api/assessments/{id} toggles isActive). */
export type UpdateDetailsRequest = Extract<UpdateAssessmentApiArg['body'], { title: string }>;

/** GET /api/assessments/{id} answers the student's view to a student. */
export function isStudentView(assessment: Assessment | StudentAssessment): assessment is StudentAssessment {
  return 'submitted' in assessment;
}

const LIST = { type: 'Assessment' as const, id: 'LIST' };
const questionsOf = (assessmentId: string) => ({ type: 'Question' as const, id: assessmentId });

export const assessmentsApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['Assessment', 'Question', 'Generation', 'Response', 'Result', 'ToReview', 'Results'],
  endpoints: {
    getAssessments: { providesTags: [LIST] },
    getAssessment: { providesTags: (_r, _e, id) => [{ type: 'Assessment', id }] },
    getQuestions: { providesTags: (_r, _e, id) => [questionsOf(id)] },
    createAssessment: { invalidatesTags: [LIST] },
    updateAssessment: { invalidatesTags: (_r, _e, { id }) => [{ type: 'Assessment', id }, LIST] },
    deleteAssessment: { invalidatesTags: [LIST] },
    assignAssessment: { invalidatesTags: (_r, _e, { id }) => [{ type: 'Assessment', id }, LIST] },
    copyAssessment: { invalidatesTags: [LIST] },
    // Adding, duplicating or deleting a question changes the assessment's question count too.
    addQuestion: { invalidatesTags: (_r, _e, { id }) => [questionsOf(id), { type: 'Assessment', id }, LIST] },
    // The question routes name the question only: the answer names its assessment.
    updateQuestion: { invalidatesTags: (result) => (result ? [questionsOf(result.assessmentId)] : []) },
    duplicateQuestion: {
      invalidatesTags: (result) =>
        result ? [questionsOf(result.assessmentId), { type: 'Assessment', id: result.assessmentId }, LIST] : [],
    },
    // DELETE answers no body: every question list and assessment is refetched (one screen shows them).
    deleteQuestion: { invalidatesTags: ['Question', 'Assessment'] },
    reorderQuestions: { invalidatesTags: (_r, _e, { id }) => [questionsOf(id)] },
    getGeneration: { providesTags: (_r, _e, id) => [{ type: 'Generation', id }] },
    retryGeneration: { invalidatesTags: (_r, _e, id) => [{ type: 'Generation', id }] },
    getResponses: { providesTags: (_r, _e, id) => [{ type: 'Response', id }] },
    // A teacher's try shows the questions as they are now (edits included).
    getStudentPreview: { providesTags: (_r, _e, id) => [questionsOf(id), { type: 'Assessment', id }] },
    getResult: { providesTags: (_r, _e, id) => [{ type: 'Result', id }] },
    submitResult: {
      invalidatesTags: (_r, _e, { assessmentId }) => [
        { type: 'Response', id: assessmentId },
        { type: 'Assessment', id: assessmentId },
        { type: 'ToReview', id: assessmentId },
      ],
    },
    // Grading by hand: the result, the assessment's to-review list and the results pages follow
    // (analytics takes the regrade from its event; its live stream refreshes them again after).
    getToReview: { providesTags: (_r, _e, id) => [{ type: 'ToReview', id }] },
    getResultRegrades: { providesTags: (_r, _e, id) => [{ type: 'Result', id }] },
    regradeResponse: {
      invalidatesTags: (result, _e, { resultId }) => [
        { type: 'Result', id: resultId },
        ...(result ? [{ type: 'ToReview' as const, id: result.assessmentId }] : []),
        'Results',
      ],
    },
    setResultFeedback: { invalidatesTags: (_r, _e, { id }) => [{ type: 'Result', id }] },
  },
});

export const {
  useGetAssessmentsQuery,
  useGetAssessmentQuery,
  useGetQuestionsQuery,
  useCreateAssessmentMutation,
  useUpdateAssessmentMutation,
  useDeleteAssessmentMutation,
  useAssignAssessmentMutation,
  useCopyAssessmentMutation,
  useAddQuestionMutation,
  useUpdateQuestionMutation,
  useDeleteQuestionMutation,
  useDuplicateQuestionMutation,
  useReorderQuestionsMutation,
  useGetGenerationQuery,
  useRetryGenerationMutation,
  useGetResponsesQuery,
  useGetResultQuery,
  useSubmitResultMutation,
  useSaveResponseMutation,
  useGetStudentPreviewQuery,
  useScoreStudentPreviewMutation,
  useLazyGetResultQuery,
  useGetToReviewQuery,
  useRegradeResponseMutation,
  useSetResultFeedbackMutation,
  /** Recommendations are fetched on demand (a button), so they go through a lazy query. */
  useLazyGetRecommendationQuery,
} = assessmentsApi;
