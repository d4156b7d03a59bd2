// District administration (identity's /api/district/**): the district, its users, invitations.
// Endpoints and types are generated from the gateway's OpenAPI document (api/generated); this file
// adds their cache tags.
import { generatedApi } from '../../api/generated/endpoints';
import type {
  District,
  DistrictInvitation,
  DistrictUser,
  GetDistrictUsersApiArg,
  GetDistrictUsersApiResponse,
} from '../../api/generated/endpoints';

export type DistrictRole = DistrictUser['role'];
export type { District, DistrictUser };
export type DistrictUsersPage = GetDistrictUsersApiResponse;
export type DistrictUsersQuery = GetDistrictUsersApiArg;
export type Invitation = DistrictInvitation;

export const districtApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['District', 'DistrictUsers', 'Invitations'],
  endpoints: {
    getDistrict: { providesTags: ['District'] },
    getDistrictUsers: (definition) => {
      const generated = definition.query!;
      // Only the parts that are set: a blank search is no search.
      definition.query = (q) =>
        generated({ ...q, search: q.search?.trim() || undefined, cursor: q.cursor || undefined });
      definition.providesTags = ['DistrictUsers'];
    },
    changeUserRole: { invalidatesTags: ['DistrictUsers', 'District'] },
    removeUser: { invalidatesTags: ['DistrictUsers', 'District'] },
    setStudentSignIn: { invalidatesTags: (result) => (result ? ['DistrictUsers'] : []) },
    getInvitations: { providesTags: ['Invitations'] },
    inviteUser: { invalidatesTags: ['Invitations'] },
    revokeInvitation: { invalidatesTags: ['Invitations'] },
  },
});

export const {
  useGetDistrictQuery,
  useGetDistrictUsersQuery,
  useChangeUserRoleMutation,
  useRemoveUserMutation,
  useGetInvitationsQuery,
  useInviteUserMutation,
  useRevokeInvitationMutation,
  useSetStudentSignInMutation,
} = districtApi;
