// Common assessments (issue 29, item 5): a district admin's assessment, its questions locked once
// published to schools / grades / subjects, which teachers assign to their classes as is
// (assessment service, /api/common-assessments…), and its roll-up report (analytics). Endpoints
// and types are generated from the gateway's OpenAPI document; this file adds their cache tags.
import { generatedApi } from '../../api/generated/endpoints';
import type {
  CommonAssessment,
  CommonAssessmentQuestion,
  CommonAssessmentReport,
  CreateCommonAssessmentApiArg,
  PublishCommonAssessmentApiArg,
} from '../../api/generated/endpoints';

export type { CommonAssessment, CommonAssessmentQuestion, CommonAssessmentReport };
export type NewCommonAssessment = CreateCommonAssessmentApiArg;
export type PublishTargets = PublishCommonAssessmentApiArg['body'];
export type ReportGroup = CommonAssessmentReport['district'];

const tagged = generatedApi.enhanceEndpoints({
  addTagTypes: ['CommonAssessment', 'Assessment'],
  endpoints: {
    getCommonAssessments: { providesTags: ['CommonAssessment'] },
    getCommonAssessment: { providesTags: ['CommonAssessment'] },
    createCommonAssessment: { invalidatesTags: ['CommonAssessment'] },
    publishCommonAssessment: { invalidatesTags: ['CommonAssessment'] },
    replaceCommonAssessmentQuestions: { invalidatesTags: ['CommonAssessment'] },
    getCommonAssessmentTargets: { providesTags: ['CommonAssessment'] },
    assignCommonAssessment: { invalidatesTags: ['CommonAssessment', { type: 'Assessment', id: 'LIST' }] },
  },
});

export const {
  useGetCommonAssessmentsQuery,
  useCreateCommonAssessmentMutation,
  usePublishCommonAssessmentMutation,
  useGetCommonAssessmentQuery,
  useGetCommonAssessmentTargetsQuery,
  useReplaceCommonAssessmentQuestionsMutation,
  useAssignCommonAssessmentMutation,
  useGetCommonAssessmentReportQuery,
} = tagged;

/** The report's CSV download (a link, not an endpoint). */
export const commonReportExportPath = (id: string) => `/api/common-assessments/${encodeURIComponent(id)}/report/export`;

/** "a, b" → ['a', 'b'] (blank: every one). */
export const listFrom = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
