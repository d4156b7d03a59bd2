// District administration (identity's /api/district/**): the district, its users, invitations.
import { apiSlice } from '../../api/apiSlice';

export type DistrictRole = 'student' | 'teacher' | 'admin';

export interface District {
  id: string;
  name: string;
  kind: 'district' | 'school' | 'individual';
  emailDomains: string[];
  passwordSignIn: boolean;
  counts: { student: number; teacher: number; admin: number; disabled: number };
}

export interface DistrictUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: DistrictRole;
  createdAt: string;
  emailVerified: boolean;
  disabled: boolean;
  source: 'password' | 'sso' | 'invitation' | 'roster' | 'unknown';
}

export interface DistrictUsersPage {
  users: DistrictUser[];
  nextCursor: string | null;
}

export interface DistrictUsersQuery {
  search?: string;
  role?: DistrictRole;
  cursor?: string;
  limit?: number;
}

export interface Invitation {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  expiresAt: string;
}

const tagged = apiSlice.enhanceEndpoints({ addTagTypes: ['District', 'DistrictUsers', 'Invitations'] });

/** `/api/district/users?…` with only the parts that are set. */
export function usersPath(q: DistrictUsersQuery): string {
  const params = new URLSearchParams();
  if (q.search?.trim()) params.set('search', q.search.trim());
  if (q.role) params.set('role', q.role);
  if (q.limit) params.set('limit', String(q.limit));
  if (q.cursor) params.set('cursor', q.cursor);
  const text = params.toString();
  return text ? `/api/district/users?${text}` : '/api/district/users';
}

export const districtApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    getDistrict: build.query<District, void>({ query: () => '/api/district', providesTags: ['District'] }),
    getDistrictUsers: build.query<DistrictUsersPage, DistrictUsersQuery>({
      query: usersPath,
      providesTags: ['DistrictUsers'],
    }),
    changeUserRole: build.mutation<{ id: string; role: DistrictRole }, { id: string; role: 'teacher' | 'admin' }>({
      query: ({ id, role }) => ({
        url: `/api/district/users/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: { role },
      }),
      invalidatesTags: ['DistrictUsers', 'District'],
    }),
    removeUser: build.mutation<void, string>({
      query: (id) => ({ url: `/api/district/users/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['DistrictUsers', 'District'],
    }),
    getInvitations: build.query<{ invitations: Invitation[] }, void>({
      query: () => '/api/district/invitations',
      providesTags: ['Invitations'],
    }),
    inviteUser: build.mutation<{ invited: true; email: string; role: string }, { email: string; role: DistrictRole }>({
      query: (body) => ({ url: '/api/district/invitations', method: 'POST', body }),
      invalidatesTags: ['Invitations'],
    }),
    revokeInvitation: build.mutation<void, string>({
      query: (id) => ({ url: `/api/district/invitations/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Invitations'],
    }),
  }),
});

export const {
  useGetDistrictQuery,
  useGetDistrictUsersQuery,
  useChangeUserRoleMutation,
  useRemoveUserMutation,
  useGetInvitationsQuery,
  useInviteUserMutation,
  useRevokeInvitationMutation,
} = districtApi;
