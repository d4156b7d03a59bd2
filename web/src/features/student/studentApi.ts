// Student-side calls (spec §7). Only what built screens use so far.
import { apiSlice } from '../../api/apiSlice';

export interface StudentEnrolment {
  id: string;
  classId: string;
}

export interface StudentResult {
  id: string;
  assessmentId: string;
}

export const studentApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getStudentClasses: build.query<StudentEnrolment[], void>({ query: () => '/api/student/classes' }),
    getStudentResults: build.query<StudentResult[], void>({ query: () => '/api/student/results' }),
  }),
});

export const { useGetStudentClassesQuery, useGetStudentResultsQuery } = studentApi;
