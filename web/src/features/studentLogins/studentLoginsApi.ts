// Students without email (docs/adr/015-students-without-email.md): the class page's "Student
// logins" (the class's accounts, reset, login cards) and the students' class-code and card sign-in.
// Endpoints and types are generated from the gateway's OpenAPI document (api/generated); this file
// adds their cache tags.
import { generatedApi } from '../../api/generated/endpoints';
import type { LoginCards, StudentLogin, StudentLogins, StudentSecret } from '../../api/generated/endpoints';

export type { LoginCards, StudentLogin, StudentLogins, StudentSecret };
export type Picture = Extract<StudentSecret, { kind: 'picture' }>['picture'];

export const studentLoginsApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['StudentLogins'],
  endpoints: {
    getStudentLogins: { providesTags: (_r, _e, id) => [{ type: 'StudentLogins', id }] },
    createStudentLogin: {
      invalidatesTags: (result, _e, { id }) => (result ? [{ type: 'StudentLogins', id }] : []),
    },
    setUpStudentLogin: {
      invalidatesTags: (result, _e, { id }) => (result ? [{ type: 'StudentLogins', id }] : []),
    },
    resetStudentSecret: {
      invalidatesTags: (result, _e, { id }) => (result ? [{ type: 'StudentLogins', id }] : []),
    },
    printLoginCards: {
      invalidatesTags: (result, _e, id) => (result ? [{ type: 'StudentLogins', id }] : []),
    },
    revokeLoginCards: {
      invalidatesTags: (result, _e, id) => (result ? [{ type: 'StudentLogins', id }] : []),
    },
  },
});

export const {
  useGetStudentLoginsQuery,
  useCreateStudentLoginMutation,
  useResetStudentSecretMutation,
  useSetUpStudentLoginMutation,
  usePrintLoginCardsMutation,
  useRevokeLoginCardsMutation,
  useGetClassCodeRosterMutation,
  useClassCodeLoginMutation,
  useLoginCardLoginMutation,
} = studentLoginsApi;
