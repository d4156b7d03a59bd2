// District administration (D6): /api/district/**, for the district's admins only, always scoped to
// the caller's own tenant (an id of another tenant answers 404, never 403).
import { ApiRouter, EMAIL, ValidationError } from '@checkpoint/service-kit';
import { z } from 'zod';
import { decodeCursor, encodeCursor, type DistrictUser } from '../data-access/district.repository.ts';
import {
  changeDistrictRole,
  getDistrict,
  inviteToDistrict,
  listDistrictUsers,
  listInvitations,
  removeDistrictUser,
  revokeInvitation,
  type DistrictAdminDeps,
} from '../domain/district-admin.use-case.ts';

const ADMIN = ['admin'] as const;
export const MAX_PAGE = 200;

const roleCounts = z.object({
  student: z.number().int(),
  teacher: z.number().int(),
  admin: z.number().int(),
  disabled: z.number().int().describe('Removed accounts (not in the other counts)'),
});

export const districtSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(['district', 'school', 'individual']),
    emailDomains: z.array(z.string()),
    passwordSignIn: z.boolean().describe('False: members sign in through the district’s provider only'),
    counts: roleCounts,
  })
  .meta({ id: 'District' });

export const districtUserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: z.enum(['student', 'teacher', 'admin']),
    createdAt: z.string(),
    emailVerified: z.boolean(),
    disabled: z.boolean().describe('Removed by an admin: cannot sign in'),
    source: z
      .enum(['password', 'sso', 'invitation', 'roster', 'unknown'])
      .describe('How the account came to be, as far as known'),
    username: z.string().nullable().describe("A student's username for the class-code sign-in; null without one"),
    signInWith: z
      .enum(['picture', 'words'])
      .nullable()
      .describe('How a student without e-mail signs in with the class code; null: not set up'),
  })
  .meta({ id: 'DistrictUser' });

export const districtUsersQuery = z.object({
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  role: z.enum(['student', 'teacher', 'admin'], { error: 'role must be student, teacher or admin' }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_PAGE, `limit must be at most ${MAX_PAGE}`)
    .default(50),
  cursor: z.string().max(1000, 'cursor is not valid').optional(),
});

const idParams = z.object({ id: z.uuid({ error: 'id must be a UUID' }) });
const invitationParams = z.object({ id: z.string().regex(/^[0-9a-f]{64}$/, 'id is not an invitation id') });

export const inviteBody = z.object({
  // As sign-up's (auth.schemas.ts): checked before trimming, so the document says what the server does.
  email: z
    .string({ error: 'Invalid email address' })
    .max(254, 'Email must be at most 254 characters')
    .regex(EMAIL, 'Invalid email address')
    .trim(),
  role: z.enum(['teacher', 'admin', 'student'], { error: 'role must be teacher, admin or student' }),
});

export const roleBody = z.object({
  role: z.enum(['teacher', 'admin'], { error: 'role must be teacher or admin' }),
});

const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.string(),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'DistrictInvitation' });

const toApiUser = (u: DistrictUser) => ({ ...u, createdAt: u.createdAt.toISOString() });

export function districtRouter(deps: DistrictAdminDeps): ApiRouter {
  const api = new ApiRouter();

  api.add(
    {
      method: 'get',
      path: '/api/district',
      summary: "The admin's district: name, kind, email domains, password sign-in, users by role",
      access: ADMIN,
      response: districtSchema,
      errors: [404],
    },
    async ({ caller }) => getDistrict(deps, caller),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/users',
      summary: "The district's users, a page at a time (by last name); search by name or email, filter by role",
      access: ADMIN,
      query: districtUsersQuery,
      response: z.object({
        users: z.array(districtUserSchema),
        nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
      }),
      errors: [404],
    },
    async ({ caller, query }) => {
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      if (query.cursor && !after) throw new ValidationError('cursor is not valid', { cursor: 'cursor is not valid' });
      const page = await listDistrictUsers(deps, caller, {
        ...(query.search ? { search: query.search } : {}),
        ...(query.role ? { role: query.role } : {}),
        limit: query.limit,
        ...(after ? { after } : {}),
      });
      return { users: page.users.map(toApiUser), nextCursor: page.next ? encodeCursor(page.next) : null };
    },
  );

  api.add(
    {
      method: 'patch',
      path: '/api/district/users/:id',
      summary: 'Promote a teacher to admin or demote an admin to teacher (not yourself, not the last admin)',
      access: ADMIN,
      params: idParams,
      body: roleBody,
      response: districtUserSchema.pick({ id: true, role: true }),
      errors: [404, 409],
    },
    async ({ caller, params, body }) => {
      const user = await changeDistrictRole(deps, caller, params.id, body.role);
      return { id: user.id, role: user.role };
    },
  );

  api.add(
    {
      method: 'delete',
      path: '/api/district/users/:id',
      summary:
        'Remove a user: the account is disabled and signed out everywhere; their classes and results stay with the district',
      access: ADMIN,
      params: idParams,
      errors: [404, 409],
    },
    async ({ caller, params }) => {
      await removeDistrictUser(deps, caller, params.id);
      return undefined;
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/district/invitations',
      summary: 'Invite someone by email to join the district as a teacher, admin or student',
      access: ADMIN,
      body: inviteBody,
      status: 202,
      response: z.object({ invited: z.literal(true), email: z.string(), role: inviteBody.shape.role }),
      errors: [404, 409, 429, 503],
    },
    async ({ caller, body }) => ({ invited: true as const, ...(await inviteToDistrict(deps, caller, body)) }),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/invitations',
      summary: "The district's invitations not yet accepted and not expired",
      access: ADMIN,
      response: z.object({ invitations: z.array(invitationSchema) }),
      errors: [404],
    },
    async ({ caller }) => ({
      invitations: (await listInvitations(deps, caller)).map((i) => ({
        ...i,
        createdAt: i.createdAt.toISOString(),
        expiresAt: i.expiresAt.toISOString(),
      })),
    }),
  );

  api.add(
    {
      method: 'delete',
      path: '/api/district/invitations/:id',
      summary: 'Revoke a pending invitation: its link stops working',
      access: ADMIN,
      params: invitationParams,
      errors: [404],
    },
    async ({ caller, params }) => {
      await revokeInvitation(deps, caller, params.id);
      return undefined;
    },
  );

  return api;
}
