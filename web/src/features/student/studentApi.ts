// Student-side calls (spec §7). Only what built screens use so far.
import { apiSlice } from '../../api/apiSlice';

/** Spec §3 Student enrolment (GET /api/student/classes). */
export interface StudentEnrolment {
  id: string;
  classId: string;
  joinedAt?: string;
  class: { name: string; period: string | null; subject: string; teacherName: string | null };
}

/** Spec §3 Student result (GET /api/student/results). */
export interface StudentResult {
  id: string;
  assessmentId: string;
  score: number;
  percentage?: string;
  performanceLevel?: 'below' | 'at' | 'above';
  correctAnswers: number;
  incorrectAnswers: number;
  totalQuestions?: number;
  className?: string;
  submittedAt: string;
  assessment?: { title: string; description: string };
}

/** GET /api/student/available-assessments: active, assigned and not yet submitted. */
export interface AvailableAssessment {
  id: string;
  title: string;
  description: string;
  className: string;
  subject: string;
  questionCount: number;
  classId: string;
}

/** 'StudentClass': joining a class (features/classes/classesApi) invalidates the student's classes. */
const tagged = apiSlice.enhanceEndpoints({ addTagTypes: ['StudentClass'] });

export const studentApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    getStudentClasses: build.query<StudentEnrolment[], void>({
      query: () => '/api/student/classes',
      providesTags: ['StudentClass'],
    }),
    getStudentResults: build.query<StudentResult[], void>({ query: () => '/api/student/results' }),
    getAvailableAssessments: build.query<AvailableAssessment[], void>({
      query: () => '/api/student/available-assessments',
    }),
  }),
});

export const { useGetStudentClassesQuery, useGetStudentResultsQuery, useGetAvailableAssessmentsQuery } = studentApi;
