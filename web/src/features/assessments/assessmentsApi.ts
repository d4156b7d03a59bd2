// Assessment and generation service calls (spec §7) for the assessment screens.
import { apiSlice } from '../../api/apiSlice';

export type QuestionType = 'multiple_choice' | 'short_answer' | 'true_false';
export type CreationQuestionType = QuestionType | 'mixed';
export type PerformanceLevel = 'below' | 'at' | 'above';
export type PracticeType = 'support' | 'enrichment';
/** draft until assigned; assigned while active; closed when deactivated after being assigned. */
export type LifecycleStatus = 'draft' | 'assigned' | 'closed';

/** What GET /api/assessments and the teacher's GET /api/assessments/{id} answer. */
export interface Assessment {
  id: string;
  classId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  dueDate: string | null;
  isActive: boolean;
  isAssigned?: boolean;
  /** Teacher views. */
  status?: LifecycleStatus;
  assignedTo?: { classId: string; className: string }[];
  createdAt: string;
  className?: string;
  subject?: string;
  questionCount: number;
  responseCount?: number;
  assignedCount?: number;
  generationStatus?: 'generating' | 'ready' | 'failed';
  generationProvider?: string | null;
  generationError?: string | null;
  /** Student view only. */
  submitted?: boolean;
  resultId?: string | null;
}

/** Summary kept for older imports. */
export type AssessmentSummary = Pick<Assessment, 'id' | 'title'>;

export interface Question {
  id: string;
  assessmentId: string;
  questionText: string;
  questionType: QuestionType;
  /** Normally a list; older data may hold a JSON string or delimited text (see parseOptions). */
  options: string[] | string | null;
  correctAnswer?: string;
  /** Short answer alternatives, shown with the key. */
  acceptedAnswers?: string[];
  points: string;
  position: number;
}

export interface CreateAssessmentRequest {
  classId: string;
  title: string;
  contentToAssess: string;
  questionType: CreationQuestionType;
  numberOfQuestions: number;
  description: string;
  /** Short labels (at most 120 characters), never the lesson text. */
  topic?: string;
  standard?: string;
}

export interface UpdateDetailsRequest {
  title: string;
  description: string;
  topic: string;
  standard: string;
  /** ISO date-time; null clears it. */
  dueDate?: string | null;
}

export interface QuestionInput {
  questionText: string;
  questionType: QuestionType;
  options: string[];
  correctAnswer: string;
  acceptedAnswers?: string[];
  points?: string | number;
}

export interface GenerationJob {
  jobId: string;
  assessmentId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  provider: string;
  /** 'model' when a language model writes the questions, 'text' when rules build them from the text. */
  questionSource?: 'model' | 'text';
  attempts: number;
  maxAttempts: number;
  questionType: string;
  questionCount: number;
  updatedAt: string;
  error?: { reason: string; message: string };
}

export interface SavedResponse {
  id: string;
  assessmentId: string;
  questionId: string;
  answer: string;
  clientSeq: number | null;
  updatedAt: string;
}

export interface Result {
  id: string;
  assessmentId: string;
  classId?: string;
  totalPoints: string;
  earnedPoints: string;
  percentage: string;
  score: number;
  performanceLevel: PerformanceLevel;
  isSubmitted: boolean;
  submittedAt: string;
  correctAnswers: number;
  incorrectAnswers: number;
  totalQuestions?: number;
  className?: string;
  assessment?: { title: string; description: string };
  /** GET /api/results/{id} and the submit reply: each question with the answer given and the key. */
  questions?: {
    questionId: string;
    position: number;
    questionText: string;
    questionType: QuestionType;
    options: string[];
    correctAnswer: string;
    acceptedAnswers?: string[];
    points: string;
    /** Null when the question was never answered. */
    answer: string | null;
    correct: boolean;
  }[];
}

export interface Recommendation {
  type: PracticeType;
  text: string;
  provider: string;
  generatedAt: string;
}

const tagged = apiSlice.enhanceEndpoints({
  addTagTypes: ['Assessment', 'Question', 'Generation', 'Response', 'Result'],
});

export const assessmentsApi = tagged.injectEndpoints({
  // api/generated injects endpoints of the same names with other argument shapes ({id, body}),
  // usually first: these hand-written ones must win until this file uses the generated ones.
  overrideExisting: true,
  endpoints: (build) => ({
    getAssessments: build.query<Assessment[], void>({
      query: () => '/api/assessments',
      providesTags: [{ type: 'Assessment', id: 'LIST' }],
    }),
    getAssessment: build.query<Assessment, string>({
      query: (id) => `/api/assessments/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Assessment', id }],
    }),
    getQuestions: build.query<Question[], string>({
      query: (id) => `/api/assessments/${encodeURIComponent(id)}/questions`,
      providesTags: (_r, _e, id) => [{ type: 'Question', id }],
    }),
    createAssessment: build.mutation<Assessment, CreateAssessmentRequest>({
      query: (body) => ({ url: '/api/assessments', method: 'POST', body }),
      invalidatesTags: [{ type: 'Assessment', id: 'LIST' }],
    }),
    updateAssessment: build.mutation<Assessment, { id: string; body: UpdateDetailsRequest | { isActive: boolean } }>({
      query: ({ id, body }) => ({ url: `/api/assessments/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Assessment', id },
        { type: 'Assessment', id: 'LIST' },
      ],
    }),
    deleteAssessment: build.mutation<void, string>({
      query: (id) => ({ url: `/api/assessments/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Assessment', id: 'LIST' }],
    }),
    assignAssessment: build.mutation<{ message: string; assignedCount: number }, string>({
      query: (id) => ({ url: `/api/assessments/${encodeURIComponent(id)}/assign`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [
        { type: 'Assessment', id },
        { type: 'Assessment', id: 'LIST' },
      ],
    }),
    addQuestion: build.mutation<Question, { assessmentId: string; body: QuestionInput }>({
      query: ({ assessmentId, body }) => ({
        url: `/api/assessments/${encodeURIComponent(assessmentId)}/questions`,
        method: 'POST',
        body,
      }),
      invalidatesTags: (_r, _e, { assessmentId }) => [
        { type: 'Question', id: assessmentId },
        { type: 'Assessment', id: assessmentId },
        { type: 'Assessment', id: 'LIST' },
      ],
    }),
    updateQuestion: build.mutation<Question, { assessmentId: string; questionId: string; body: QuestionInput }>({
      query: ({ questionId, body }) => ({
        url: `/api/questions/${encodeURIComponent(questionId)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_r, _e, { assessmentId }) => [{ type: 'Question', id: assessmentId }],
    }),
    duplicateQuestion: build.mutation<Question, { assessmentId: string; questionId: string }>({
      query: ({ questionId }) => ({
        url: `/api/questions/${encodeURIComponent(questionId)}/duplicate`,
        method: 'POST',
      }),
      invalidatesTags: (_r, _e, { assessmentId }) => [
        { type: 'Question', id: assessmentId },
        { type: 'Assessment', id: assessmentId },
        { type: 'Assessment', id: 'LIST' },
      ],
    }),
    reorderQuestions: build.mutation<Question[], { assessmentId: string; questionIds: string[] }>({
      query: ({ assessmentId, questionIds }) => ({
        url: `/api/assessments/${encodeURIComponent(assessmentId)}/questions/order`,
        method: 'PUT',
        body: { questionIds },
      }),
      invalidatesTags: (_r, _e, { assessmentId }) => [{ type: 'Question', id: assessmentId }],
    }),
    deleteQuestion: build.mutation<void, { assessmentId: string; questionId: string }>({
      query: ({ questionId }) => ({ url: `/api/questions/${encodeURIComponent(questionId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { assessmentId }) => [
        { type: 'Question', id: assessmentId },
        { type: 'Assessment', id: assessmentId },
        { type: 'Assessment', id: 'LIST' },
      ],
    }),
    getGeneration: build.query<GenerationJob, string>({
      query: (id) => `/api/assessments/${encodeURIComponent(id)}/generation`,
      providesTags: (_r, _e, id) => [{ type: 'Generation', id }],
    }),
    retryGeneration: build.mutation<GenerationJob, string>({
      query: (id) => ({ url: `/api/assessments/${encodeURIComponent(id)}/generation/retry`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Generation', id }],
    }),
    getResponses: build.query<SavedResponse[], string>({
      query: (id) => `/api/assessments/${encodeURIComponent(id)}/responses`,
      providesTags: (_r, _e, id) => [{ type: 'Response', id }],
    }),
    getResult: build.query<Result, string>({
      query: (id) => `/api/results/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Result', id }],
    }),
    saveResponse: build.mutation<
      SavedResponse,
      { assessmentId: string; questionId: string; answer: string; clientSeq?: number }
    >({
      query: (body) => ({ url: '/api/responses', method: 'POST', body }),
    }),
    submitResult: build.mutation<Result, { assessmentId: string }>({
      query: (body) => ({ url: '/api/results', method: 'POST', body }),
      invalidatesTags: (_r, _e, { assessmentId }) => [
        { type: 'Response', id: assessmentId },
        { type: 'Assessment', id: assessmentId },
      ],
    }),
  }),
});

export const {
  useGetAssessmentsQuery,
  useGetAssessmentQuery,
  useGetQuestionsQuery,
  useCreateAssessmentMutation,
  useUpdateAssessmentMutation,
  useDeleteAssessmentMutation,
  useAssignAssessmentMutation,
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
  useLazyGetResultQuery,
} = assessmentsApi;

/** Recommendations are fetched on demand (a button), so they go through a lazy query. */
export const recommendationsApi = tagged.injectEndpoints({
  overrideExisting: true, // as above
  endpoints: (build) => ({
    getRecommendation: build.query<Recommendation, { assessmentId: string; type: PracticeType }>({
      query: ({ assessmentId, type }) => `/api/assessments/${encodeURIComponent(assessmentId)}/recommendations/${type}`,
    }),
  }),
});

export const { useLazyGetRecommendationQuery } = recommendationsApi;
