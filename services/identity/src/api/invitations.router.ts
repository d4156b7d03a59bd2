// Accepting an invitation from a district's admin (docs/security.md, "District membership"): the
// page /accept-invitation?token=… reads what the invitation is for, then creates the account.
import { ApiRouter, clientAddress, TooManyRequestsError } from '@checkpoint/service-kit';
import { acceptInvitation, lookUpInvitation, type MembershipDeps } from '../domain/membership.use-case.ts';
import type { Limiter } from '../domain/ports.ts';
import { startSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { toPublicUser } from '../domain/user.ts';
import { invitationAcceptBody, invitationParams, invitationSchema, userEnvelope } from './auth.schemas.ts';
import type { SessionCookies } from './session-cookies.ts';

export interface InvitationsRouterDeps {
  membership: MembershipDeps;
  sessions: SessionDeps;
  cookies: SessionCookies;
  /** Per client address: reading and accepting invitations (a token is 256 bits; this bounds the work). */
  limit: Limiter;
}

export function invitationsRouter(deps: InvitationsRouterDeps): ApiRouter {
  const api = new ApiRouter();

  const limited = async (address: string) => {
    const limit = await deps.limit.consume(address);
    if (!limit.allowed) {
      throw new TooManyRequestsError(
        `Too many attempts. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
        limit.retryAfterSeconds,
      );
    }
  };

  api.add(
    {
      method: 'get',
      path: '/api/auth/invitations/:token',
      summary: 'What an invitation to a district is for (the token stays unused)',
      access: 'public',
      params: invitationParams,
      response: invitationSchema,
      errors: [404, 429],
    },
    async ({ params, req }) => {
      await limited(clientAddress(req));
      return lookUpInvitation(deps.membership, params.token);
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/invitations/accept',
      summary: 'Accept an invitation: creates the account in the district and signs in',
      access: 'public',
      body: invitationAcceptBody,
      status: 201,
      response: userEnvelope,
      errors: [404, 409, 429],
    },
    async ({ body, req, res }) => {
      await limited(clientAddress(req));
      const user = await acceptInvitation(deps.membership, body);
      deps.cookies.set(res, await startSession(deps.sessions, user));
      return { user: toPublicUser(user) };
    },
  );

  return api;
}
