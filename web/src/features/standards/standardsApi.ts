// Standards (docs/adr/012-standards.md): the catalogue of imported CASE frameworks (assessment
// service, /api/standards/…) and the mastery read models (analytics: a class's heatmap, a
// student's standards with their trend, the district's view). Endpoints and types are generated
// from the gateway's OpenAPI document (api/generated); this file adds their cache tags, and the
// import, whose body is the chosen file's JSON as it is (the server validates the package) or `{ url }`.
import { generatedApi } from '../../api/generated/endpoints';
import type {
  ClassMastery,
  DistrictMastery,
  Framework,
  FrameworkImport,
  GetApiStandardsSearchApiArg,
  StandardItem,
  StudentMastery,
} from '../../api/generated/endpoints';

export type { Framework, FrameworkImport, StandardItem };
export type ImportCounts = FrameworkImport['counts'];
export type SearchArgs = GetApiStandardsSearchApiArg;
export type ClassMasteryRow = ClassMastery[number];
export type MasteryCell = ClassMasteryRow['standards'][number];
export type MasteryLevel = MasteryCell['level'];
export type StudentStandard = StudentMastery[number];
export type DistrictStandard = DistrictMastery[number];
export type DistrictClass = DistrictStandard['classes'][number];

/** A standard a question or an assessment is aligned to (the statement when the API gives it). */
export interface StandardRef {
  identifier: string;
  code: string;
  uri?: string | undefined;
  statement?: string | undefined;
}

/** Downloads (links, not endpoints). */
export const classMasteryExportPath = (classId: string) => `/api/classes/${encodeURIComponent(classId)}/mastery/export`;
export const DISTRICT_MASTERY_EXPORT_PATH = '/api/mastery/district/export';
export const studentMasteryExportPath = (studentId: string) =>
  `/api/mastery/students/${encodeURIComponent(studentId)}/export`;

const tagged = generatedApi.enhanceEndpoints({
  addTagTypes: ['Framework', 'Mastery'],
  endpoints: {
    getApiStandardsFrameworks: { providesTags: ['Framework'] },
    getApiStandardsSearch: { providesTags: ['Framework'] },
    getClassMastery: { providesTags: ['Mastery'] },
    getStudentMastery: { providesTags: ['Mastery'] },
    getDistrictMastery: { providesTags: ['Mastery'] },
  },
});

export const standardsApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    importFramework: build.mutation<FrameworkImport, { package: unknown } | { url: string }>({
      query: (arg) => ({
        url: '/api/standards/frameworks',
        method: 'POST',
        body: 'url' in arg ? { url: arg.url } : arg.package,
      }),
      invalidatesTags: ['Framework'],
    }),
  }),
});

export const {
  useGetApiStandardsFrameworksQuery: useGetFrameworksQuery,
  useGetApiStandardsSearchQuery: useSearchStandardsQuery,
  useGetClassMasteryQuery,
  useGetStudentMasteryQuery,
  useGetDistrictMasteryQuery,
} = tagged;
export const { useImportFrameworkMutation } = standardsApi;
