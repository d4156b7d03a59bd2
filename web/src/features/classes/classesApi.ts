// Class service calls (with restore and remove-student): the teacher's classes, members,
// joining by code or from the browse list. Endpoints and types are generated from the gateway's
// OpenAPI document (api/generated); this file adds their cache tags.
import { generatedApi } from '../../api/generated/endpoints';
import type {
  BrowseClass,
  Class,
  ClassMembership,
  ClassTeacher,
  JoinResult,
  CreateClassApiArg,
} from '../../api/generated/endpoints';

/** A class as the class service answers it. */
export type ClassItem = Class;
/** Kept for older imports (profile statistics). */
export type ClassSummary = Pick<ClassItem, 'id' | 'name'>;
/** A student's membership of a class. */
export type ClassMember = ClassMembership;
/** A teacher of a class: its owner or a co-teacher. */
export type { ClassTeacher };
/** A class a student may join from the browse list (GET /api/all-classes). */
export type { BrowseClass, JoinResult };
export type ClassInput = CreateClassApiArg;

const LIST = { type: 'Class' as const, id: 'LIST' };
const ARCHIVED = { type: 'Class' as const, id: 'ARCHIVED' };

export const classesApi = generatedApi.enhanceEndpoints({
  // 'StudentClass' is provided by features/student/studentApi (GET /api/student/classes);
  // 'Assessment' by the assessment screens: a new class brings new assessments for a student.
  addTagTypes: ['Class', 'ClassMembers', 'ClassTeachers', 'StudentClass', 'BrowseClass', 'Assessment'],
  endpoints: {
    getClasses: {
      providesTags: (result) => [LIST, ...(result ?? []).map((c) => ({ type: 'Class' as const, id: c.id }))],
    },
    getArchivedClasses: {
      providesTags: (result) => [ARCHIVED, ...(result ?? []).map((c) => ({ type: 'Class' as const, id: c.id }))],
    },
    getClass: { providesTags: (_r, _e, id) => [{ type: 'Class', id }] },
    getClassStudents: { providesTags: (_r, _e, id) => [{ type: 'ClassMembers', id }] },
    createClass: { invalidatesTags: [LIST] },
    updateClass: { invalidatesTags: (_r, _e, { id }) => [{ type: 'Class', id }, LIST, ARCHIVED] },
    archiveClass: { invalidatesTags: (_r, _e, id) => [{ type: 'Class', id }, LIST, ARCHIVED] },
    restoreClass: { invalidatesTags: (_r, _e, id) => [{ type: 'Class', id }, LIST, ARCHIVED] },
    deleteClass: { invalidatesTags: [LIST, ARCHIVED] },
    removeStudent: {
      invalidatesTags: (_r, _e, { id }) => [{ type: 'ClassMembers', id }, { type: 'Class', id }, LIST],
    },
    getClassTeachers: { providesTags: (_r, _e, id) => [{ type: 'ClassTeachers', id }] },
    addClassTeacher: { invalidatesTags: (result, _e, { id }) => (result ? [{ type: 'ClassTeachers', id }] : []) },
    // Leaving a class one co-teaches takes it off their list.
    removeClassTeacher: {
      invalidatesTags: (_r, _e, { id }) => [{ type: 'ClassTeachers', id }, { type: 'Class', id }, LIST],
    },
    getAllClasses: { providesTags: ['BrowseClass'] },
    joinClass: { invalidatesTags: (result) => (result ? ['StudentClass', 'BrowseClass', 'Assessment'] : []) },
    joinClassDirect: { invalidatesTags: (result) => (result ? ['StudentClass', 'BrowseClass', 'Assessment'] : []) },
  },
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
  useGetClassTeachersQuery,
  useAddClassTeacherMutation,
  useRemoveClassTeacherMutation,
  useGetAllClassesQuery,
  useJoinClassMutation,
  useJoinClassDirectMutation,
  useLazyLookUpJoinCodeQuery,
} = classesApi;
