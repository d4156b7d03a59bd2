// Class service calls (spec §7, plus restore and remove-student): the teacher's classes, members,
// joining by code or from the browse list. Shapes follow services/class/src/api/classes.schemas.ts.
import { apiSlice } from '../../api/apiSlice';

/** Spec §3 Class. */
export interface ClassItem {
  id: string;
  name: string;
  subject: string;
  period: string | null;
  joinCode: string;
  createdAt: string;
  teacherId: string;
  teacherName: string | null;
  studentCount: number;
  assessmentCount: number;
  belowStandard: number;
  atStandard: number;
  aboveStandard: number;
  archived: boolean;
}

/** Kept for older imports (profile statistics). */
export type ClassSummary = Pick<ClassItem, 'id' | 'name'>;

/** Spec §3 Class membership. */
export interface ClassMember {
  id: string;
  joinedAt: string;
  student: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    profileImageUrl: string | null;
  };
}

/** A class a student may join from the browse list (GET /api/all-classes). */
export interface BrowseClass {
  id: string;
  name: string;
  period: string | null;
  subject: string;
  teacherId: string;
  teacherName: string | null;
  studentCount: number;
}

export interface ClassInput {
  name: string;
  subject: string;
  period: string;
}

export interface JoinResult {
  className: string;
  classId: string;
}

const tagged = apiSlice.enhanceEndpoints({
  // 'StudentClass' is provided by features/student/studentApi (GET /api/student/classes);
  // 'Assessment' by the assessment screens: a new class brings new assessments for a student.
  addTagTypes: ['Class', 'ClassMembers', 'StudentClass', 'BrowseClass', 'Assessment'],
});

const LIST = { type: 'Class' as const, id: 'LIST' };
const ARCHIVED = { type: 'Class' as const, id: 'ARCHIVED' };
const path = (id: string) => `/api/classes/${encodeURIComponent(id)}`;

export const classesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    getClasses: build.query<ClassItem[], void>({
      query: () => '/api/classes',
      providesTags: (result) => [LIST, ...(result ?? []).map((c) => ({ type: 'Class' as const, id: c.id }))],
    }),
    getArchivedClasses: build.query<ClassItem[], void>({
      query: () => '/api/classes/archived',
      providesTags: (result) => [ARCHIVED, ...(result ?? []).map((c) => ({ type: 'Class' as const, id: c.id }))],
    }),
    getClass: build.query<ClassItem, string>({
      query: (id) => path(id),
      providesTags: (_r, _e, id) => [{ type: 'Class', id }],
    }),
    getClassStudents: build.query<ClassMember[], string>({
      query: (id) => `${path(id)}/students`,
      providesTags: (_r, _e, id) => [{ type: 'ClassMembers', id }],
    }),
    createClass: build.mutation<ClassItem, ClassInput>({
      query: (body) => ({ url: '/api/classes', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateClass: build.mutation<ClassItem, { id: string; body: ClassInput }>({
      query: ({ id, body }) => ({ url: path(id), method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Class', id }, LIST, ARCHIVED],
    }),
    archiveClass: build.mutation<ClassItem, string>({
      query: (id) => ({ url: `${path(id)}/archive`, method: 'PUT' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Class', id }, LIST, ARCHIVED],
    }),
    restoreClass: build.mutation<ClassItem, string>({
      query: (id) => ({ url: `${path(id)}/restore`, method: 'PUT' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Class', id }, LIST, ARCHIVED],
    }),
    deleteClass: build.mutation<null, string>({
      query: (id) => ({ url: path(id), method: 'DELETE' }),
      invalidatesTags: [LIST, ARCHIVED],
    }),
    removeStudent: build.mutation<null, { classId: string; studentId: string }>({
      query: ({ classId, studentId }) => ({
        url: `${path(classId)}/students/${encodeURIComponent(studentId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_r, _e, { classId }) => [
        { type: 'ClassMembers', id: classId },
        { type: 'Class', id: classId },
        LIST,
      ],
    }),
    getAllClasses: build.query<BrowseClass[], void>({
      query: () => '/api/all-classes',
      providesTags: ['BrowseClass'],
    }),
    joinClass: build.mutation<JoinResult, string>({
      query: (joinCode) => ({ url: '/api/classes/join', method: 'POST', body: { joinCode } }),
      invalidatesTags: (result) => (result ? ['StudentClass', 'BrowseClass', 'Assessment'] : []),
    }),
    joinClassDirect: build.mutation<JoinResult, string>({
      query: (id) => ({ url: `${path(id)}/join-direct`, method: 'POST' }),
      invalidatesTags: (result) => (result ? ['StudentClass', 'BrowseClass', 'Assessment'] : []),
    }),
  }),
});

export const {
  useGetClassesQuery,
  useGetArchivedClassesQuery,
  useGetClassQuery,
  useGetClassStudentsQuery,
  useCreateClassMutation,
  useUpdateClassMutation,
  useArchiveClassMutation,
  useRestoreClassMutation,
  useDeleteClassMutation,
  useRemoveStudentMutation,
  useGetAllClassesQuery,
  useJoinClassMutation,
  useJoinClassDirectMutation,
} = classesApi;
