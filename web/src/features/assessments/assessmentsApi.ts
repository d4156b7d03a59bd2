// Assessment service calls (spec §7). Only what built screens use so far.
import { apiSlice } from '../../api/apiSlice';

export interface AssessmentSummary {
  id: string;
  title: string;
}

export const assessmentsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getAssessments: build.query<AssessmentSummary[], void>({ query: () => '/api/assessments' }),
  }),
});

export const { useGetAssessmentsQuery } = assessmentsApi;
