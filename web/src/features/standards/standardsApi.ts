// Standards (docs/adr/012-standards.md): the catalogue of imported CASE frameworks (assessment
// service, /api/standards/…) and the mastery read models (analytics: a class's heatmap, a
// student's standards with their trend, the district's view). The shapes are the API's; the
// import body is the chosen file's JSON as it is (the server validates the package) or `{ url }`.
import { apiSlice } from '../../api/apiSlice';

export interface Framework {
  id: string;
  title: string;
  documentIdentifier: string;
  creator: string;
  version: string;
  uri: string;
  subjects: string[];
  itemCount: number;
  scope: 'district' | 'platform';
  importedAt: string;
  updatedAt: string;
}

export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
}

export interface FrameworkImport {
  framework: Framework;
  counts: ImportCounts;
}

/** An item of the catalogue as a search finds it. */
export interface StandardItem {
  identifier: string;
  code: string;
  statement: string;
  uri: string;
  frameworkId: string;
  frameworkTitle: string;
  educationLevels: string[];
}

/** A standard a question or an assessment is aligned to (statement when the API gives it). */
export interface StandardRef {
  identifier: string;
  code: string;
  uri?: string;
  statement?: string;
}

export interface SearchArgs {
  q: string;
  grade?: string;
  subject?: string;
  limit?: number;
}

export type MasteryLevel = 'below' | 'at' | 'above';

export interface MasteryCell {
  identifier: string;
  code: string;
  level: MasteryLevel;
  evidenceCount: number;
  score: number;
}

export interface ClassMasteryRow {
  studentId: string;
  studentName: string;
  standards: MasteryCell[];
}

export interface StudentStandard extends MasteryCell {
  trend: { assessmentId: string; title: string; submittedAt: string; score: number }[];
}

/** A group's figures in the district view: none when it has fewer than 5 students (suppressed). */
export interface GroupFigures {
  suppressed: boolean;
  students?: number;
  score?: number;
  level?: MasteryLevel;
  below?: number;
  at?: number;
  above?: number;
}

export interface DistrictClass extends GroupFigures {
  classId: string;
  className: string;
  period: string | null;
  teacherName: string;
}

/** One standard across the district, with each class's figures. */
export interface DistrictStandard extends GroupFigures {
  identifier: string;
  code: string;
  classes: DistrictClass[];
}

/** Downloads (links, not endpoints). */
export const classMasteryExportPath = (classId: string) => `/api/classes/${encodeURIComponent(classId)}/mastery/export`;
export const DISTRICT_MASTERY_EXPORT_PATH = '/api/mastery/district/export';

export const standardsApi = apiSlice.enhanceEndpoints({ addTagTypes: ['Framework', 'Mastery'] }).injectEndpoints({
  endpoints: (build) => ({
    getFrameworks: build.query<Framework[], void>({
      query: () => ({ url: '/api/standards/frameworks' }),
      providesTags: ['Framework'],
    }),
    importFramework: build.mutation<FrameworkImport, { package: unknown } | { url: string }>({
      query: (arg) => ({
        url: '/api/standards/frameworks',
        method: 'POST',
        body: 'url' in arg ? { url: arg.url } : arg.package,
      }),
      invalidatesTags: ['Framework'],
    }),
    searchStandards: build.query<StandardItem[], SearchArgs>({
      query: ({ q, grade, subject, limit }) => ({
        url: '/api/standards/search',
        params: { q, ...(grade ? { grade } : {}), ...(subject ? { subject } : {}), ...(limit ? { limit } : {}) },
      }),
      providesTags: ['Framework'],
    }),
    getClassMastery: build.query<ClassMasteryRow[], string>({
      query: (classId) => ({ url: `/api/classes/${encodeURIComponent(classId)}/mastery` }),
      providesTags: ['Mastery'],
    }),
    getStudentMastery: build.query<StudentStandard[], string>({
      query: (studentId) => ({ url: `/api/mastery/students/${encodeURIComponent(studentId)}` }),
      providesTags: ['Mastery'],
    }),
    getDistrictMastery: build.query<DistrictStandard[], void>({
      query: () => ({ url: '/api/mastery/district' }),
      providesTags: ['Mastery'],
    }),
  }),
});

export const {
  useGetFrameworksQuery,
  useImportFrameworkMutation,
  useSearchStandardsQuery,
  useGetClassMasteryQuery,
  useGetStudentMasteryQuery,
  useGetDistrictMasteryQuery,
} = standardsApi;
