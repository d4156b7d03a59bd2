// Analytics service calls: results of classes and assessments, the class grid, All Students,
// reports and exports, usage and the admin's district figures. Every list is the caller's own: a
// teacher's classes, or an admin's whole district. Endpoints and types are generated from the
// gateway's OpenAPI document (api/generated); this file adds their cache tags.
import { generatedApi } from '../../api/generated/endpoints';
import type {
  AdminStats,
  GetAssessmentProgressApiResponse,
  GetAssessmentResultsApiResponse,
  GetClassGridApiResponse,
  GetReportApiArg,
  GetStudentsOverviewApiArg,
  GetStudentsOverviewApiResponse,
  GetUsageApiResponse,
  Report,
  TeacherResult,
} from '../../api/generated/endpoints';

/** The server's performance level of one result (below < 80, at ≥ 80, above ≥ 90; raised by practice). */
export type Level = TeacherResult['performanceLevel'];

/** One result as a teacher sees it (GET /api/classes/{id}/results, GET /api/all-results). */
export type { TeacherResult };

/** GET /api/classes/{id}/grid: the student progress grid of one class. */
export type ClassGrid = GetClassGridApiResponse;

/** 80/60 bands of the reports and All Students, on averages (80 or more above, 60 or more at standard). */
export type Band = Level;

/** GET /api/dashboard/students?classId=&search=&limit=&offset= (All Students). */
export type StudentsOverview = GetStudentsOverviewApiResponse;
export type StudentSummary = StudentsOverview['students'][number];
export type StudentsQuery = GetStudentsOverviewApiArg;

export const TIMEFRAMES = ['week', 'month', 'quarter', 'year', 'all'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const REPORT_TYPES = ['performance', 'detailed', 'standards', 'progress'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export interface ReportQuery {
  /** Empty: all the caller's classes. */
  classIds: string[];
  timeframe: Timeframe;
  type: ReportType;
}

/** GET /api/reports?classIds=a,b&timeframe=&type= : the same table the CSV and PDF exports hold. */
export type { Report };

/** GET /api/assessments/{id}/results: the results page of one assessment. */
export type AssessmentResults = GetAssessmentResultsApiResponse;
export type ItemStatistics = AssessmentResults['questions'][number];

/** GET /api/assessments/{id}/progress: who has started, answered how many, submitted (no answers). */
export type AssessmentProgress = GetAssessmentProgressApiResponse;
export type StudentProgress = AssessmentProgress['students'][number];

/** GET /api/admin/stats plus the district's figures. */
export type { AdminStats };

/** GET /api/dashboard/usage: what the caller has, for the Subscription usage panel. */
export type Usage = GetUsageApiResponse;

const list = (ids: string[]) => ids.join(',');

/** The report's arguments as the API takes them (class ids comma-separated, none: all). */
export function reportArg(q: ReportQuery): GetReportApiArg {
  return { timeframe: q.timeframe, type: q.type, ...(q.classIds.length ? { classIds: list(q.classIds) } : {}) };
}

export function reportParams(q: ReportQuery): string {
  return new URLSearchParams(reportArg(q) as Record<string, string>).toString();
}

/** Where the browser downloads an export (a plain GET, so the cookie goes along). */
export function exportUrl(q: ReportQuery, format: 'csv' | 'pdf'): string {
  return `/api/reports/export?${reportParams(q)}&format=${format}`;
}

/**
 * 'Results' is invalidated when the live stream reports a new or changed result, 'Progress' when
 * it reports that a student's count of answered questions moved.
 */
export const resultsApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['Results', 'Progress'],
  endpoints: {
    getClassResults: { providesTags: ['Results'] },
    getClassGrid: { providesTags: ['Results', 'Progress'] },
    getAssessmentProgress: { providesTags: ['Results', 'Progress'] },
    getStudentsOverview: (definition) => {
      const generated = definition.query!;
      // Only the filters that are set: an empty search or class is none.
      definition.query = (q) =>
        generated(Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '')));
      definition.providesTags = ['Results'];
    },
    getReport: { providesTags: ['Results'] },
    getAssessmentResults: { providesTags: ['Results'] },
    getAdminStats: { providesTags: ['Results'] },
    getUsage: { providesTags: ['Results'] },
  },
});

export const {
  useGetClassResultsQuery,
  useGetClassGridQuery,
  useGetStudentsOverviewQuery,
  useGetReportQuery,
  useLazyGetReportQuery,
  useGetAssessmentResultsQuery,
  useGetAssessmentProgressQuery,
  useGetAdminStatsQuery,
  useGetUsageQuery,
} = resultsApi;
