// Student-side calls. Endpoints and types are generated from the gateway's OpenAPI
// document (api/generated); this file adds their cache tags.
import { generatedApi } from '../../api/generated/endpoints';
import type { AvailableAssessment, Result, StudentEnrolment } from '../../api/generated/endpoints';

/** A student's enrolment (GET /api/student/classes). */
export type { StudentEnrolment };
/** One of the student's own results (GET /api/student/results). */
export type StudentResult = Result;
/** GET /api/student/available-assessments: active, assigned and not yet submitted. */
export type { AvailableAssessment };

/** 'StudentClass': joining a class (features/classes/classesApi) invalidates the student's classes. */
export const studentApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['StudentClass'],
  endpoints: { getStudentClasses: { providesTags: ['StudentClass'] } },
});

export const { useGetStudentClassesQuery, useGetStudentResultsQuery, useGetAvailableAssessmentsQuery } = studentApi;
