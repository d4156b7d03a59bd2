// Analytics service calls: results of classes and assessments, the class grid, All Students,
// reports and exports, usage and the admin's district figures. Shapes follow
// services/analytics/src/api/analytics.schemas.ts. Every list is the caller's own: a teacher's
// classes, or an admin's whole district.
import { apiSlice } from '../../api/apiSlice';

/** The server's performance level of one result (below < 80, at ≥ 80, above ≥ 90; raised by practice). */
export type Level = 'below' | 'at' | 'above';

/** Spec §3 Teacher result (GET /api/classes/{id}/results, GET /api/all-results). */
export interface TeacherResult {
  id: string;
  studentId: string;
  assessmentId: string;
  classId: string;
  className: string;
  /** Rounded percentage. */
  score: number;
  percentage: number;
  earnedPoints: number;
  totalPoints: number;
  performanceLevel: Level;
  submittedAt: string;
  student: { firstName: string; lastName: string };
  assessment: { title: string; topic: string; classId: string };
}

/** GET /api/classes/{id}/grid: the student progress grid of one class. */
export interface ClassGrid {
  classId: string;
  className: string;
  students: { id: string; firstName: string; lastName: string }[];
  assessments: { id: string; title: string; createdAt: string }[];
  /** One cell per student and assessment with a result (the student's result of that assessment). */
  cells: { studentId: string; assessmentId: string; resultId: string; percentage: number; performanceLevel: Level }[];
}

/** 80/60 bands of the reports and All Students (spec §4), on averages. */
export type Band = Level;

export interface StudentSummary {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** Mean percentage of the student's results, or null without results. */
  average: number | null;
  band: Band | null;
  resultCount: number;
  classes: { id: string; name: string; period: string | null }[];
  /** The newest three results. */
  results: {
    resultId: string;
    assessmentId: string;
    title: string;
    percentage: number;
    performanceLevel: Level;
    submittedAt: string;
  }[];
}

/** GET /api/dashboard/students?classId=&search=&limit=&offset= (All Students). */
export interface StudentsOverview {
  /** Over every student in scope (not only this page); bands 80/60 on each student's average. */
  stats: { totalStudents: number; aboveStandard: number; atStandard: number; belowStandard: number };
  total: number;
  students: StudentSummary[];
  classes: { id: string; name: string; period: string | null; subject: string }[];
}

export interface StudentsQuery {
  classId?: string;
  search?: string;
  limit?: number;
  offset?: number;
}

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
export interface Report {
  generatedAt: string;
  timeframe: Timeframe;
  type: ReportType;
  title: string;
  classes: { id: string; name: string; period: string | null }[];
  summary: {
    totalResults: number;
    studentsAssessed: number;
    assessmentsGiven: number;
    averageScore: number;
    /** Results by the 80/60 bands, counts and rounded percents of totalResults. */
    aboveStandard: number;
    atStandard: number;
    belowStandard: number;
    abovePercent: number;
    atPercent: number;
    belowPercent: number;
  };
  /** Results per day (week), week (month, quarter) or month (year, all) by the 80/60 bands, oldest first; `period` is the UTC start date. */
  levelsOverTime: { period: string; above: number; at: number; below: number }[];
  columns: { key: string; label: string }[];
  rows: Record<string, string | number | null>[];
  /** Rows of the whole report; `rows` holds at most 1000 of them (the exports hold all). */
  totalRows: number;
  /** Newest first, at most 10 (spec §9). */
  recentResults: TeacherResult[];
}

export interface ItemStatistics {
  id: string;
  position: number;
  questionText: string;
  questionType: 'multiple_choice' | 'short_answer' | 'true_false';
  options: string[];
  correctAnswer: string;
  points: number;
  /** Results that answered this question. */
  answered: number;
  correctCount: number;
  /** correctCount / results, 0..1; null without results. */
  shareCorrect: number | null;
  /** Upper-lower discrimination index (-1..1); null with fewer than 2 results. */
  discrimination: number | null;
  /** How often each option (or, for short answers, each distinct answer) was chosen. */
  optionCounts: { option: string; count: number; correct: boolean }[];
}

/** GET /api/assessments/{id}/results: the results page of one assessment. */
export interface AssessmentResults {
  assessment: { id: string; title: string; topic: string; classId: string; className: string; questionCount: number };
  summary: {
    submitted: number;
    classSize: number;
    averageScore: number;
    aboveStandard: number;
    atStandard: number;
    belowStandard: number;
  };
  results: {
    id: string;
    studentId: string;
    student: { firstName: string; lastName: string };
    percentage: number;
    earnedPoints: number;
    totalPoints: number;
    performanceLevel: Level;
    submittedAt: string;
    /** Support or enrichment practice this student completed for the assessment. */
    practice: { type: string; attempts: number; bestScore: number }[];
    answers: { questionId: string; answer: string; correct: boolean }[];
  }[];
  questions: ItemStatistics[];
  /** Ten buckets 0–9 … 90–100 of the results' percentages. */
  distribution: { range: string; count: number }[];
}

/** GET /api/admin/stats (spec §3 Admin stats) plus the district's figures. */
export interface AdminStats {
  totalUsers: number;
  totalTeachers: number;
  totalStudents: number;
  totalClasses: number;
  totalAssessments: number;
  /** Submitted results. */
  totalResponses: number;
  recentSignups: { name: string; email: string; role: string; date: string }[];
  averageScore: number;
  levels: { below: number; at: number; above: number };
}

/** GET /api/dashboard/usage: what the caller has, for the Subscription usage panel. */
export interface Usage {
  classes: number;
  students: number;
  assessments: number;
}

const list = (ids: string[]) => ids.join(',');

export function reportParams(q: ReportQuery): string {
  const p = new URLSearchParams({ timeframe: q.timeframe, type: q.type });
  if (q.classIds.length) p.set('classIds', list(q.classIds));
  return p.toString();
}

/** Where the browser downloads an export (a plain GET, so the cookie goes along). */
export function exportUrl(q: ReportQuery, format: 'csv' | 'pdf'): string {
  return `/api/reports/export?${reportParams(q)}&format=${format}`;
}

/** 'Results' is invalidated when the live stream reports a new or changed result. */
const tagged = apiSlice.enhanceEndpoints({ addTagTypes: ['Results'] });

export const resultsApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    getClassResults: build.query<TeacherResult[], string>({
      query: (classId) => `/api/classes/${classId}/results`,
      providesTags: ['Results'],
    }),
    getClassGrid: build.query<ClassGrid, string>({
      query: (classId) => `/api/classes/${classId}/grid`,
      providesTags: ['Results'],
    }),
    getStudentsOverview: build.query<StudentsOverview, StudentsQuery>({
      query: (q) => {
        const p = new URLSearchParams();
        for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') p.set(k, String(v));
        const s = p.toString();
        return `/api/dashboard/students${s ? `?${s}` : ''}`;
      },
      providesTags: ['Results'],
    }),
    getReport: build.query<Report, ReportQuery>({
      query: (q) => `/api/reports?${reportParams(q)}`,
      providesTags: ['Results'],
    }),
    getAssessmentResults: build.query<AssessmentResults, string>({
      query: (id) => `/api/assessments/${id}/results`,
      providesTags: ['Results'],
    }),
    getAdminStats: build.query<AdminStats, void>({ query: () => '/api/admin/stats', providesTags: ['Results'] }),
    getUsage: build.query<Usage, void>({ query: () => '/api/dashboard/usage', providesTags: ['Results'] }),
  }),
});

export const {
  useGetClassResultsQuery,
  useGetClassGridQuery,
  useGetStudentsOverviewQuery,
  useGetReportQuery,
  useLazyGetReportQuery,
  useGetAssessmentResultsQuery,
  useGetAdminStatsQuery,
  useGetUsageQuery,
} = resultsApi;
