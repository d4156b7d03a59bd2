// District SSO: what the sign-in page learns from a typed email (GET /api/auth/sso), and the
// district admin's settings (/api/district/sso: the connection, password sign-in on/off).
// The sign-in a provider starts lives in google.router.ts beside the flow cookie it sets.
import { ApiRouter, clientAddress, TooManyRequestsError } from '@checkpoint/service-kit';
import type { Limiter } from '../domain/ports.ts';
import {
  getSsoSettings,
  lookUpSignIn,
  removeSsoConnection,
  saveSsoConnection,
  setPasswordSignIn,
  type SsoDeps,
} from '../domain/sso.use-case.ts';
import {
  passwordSignInBody,
  ssoConnectionBody,
  ssoLookupQuery,
  ssoLookupResponse,
  ssoSettingsResponse,
} from './sso.schemas.ts';

export interface SsoRouterDeps extends SsoDeps {
  /** Look-ups per client address (each typed address is one). */
  lookupLimit: Limiter;
}

const ADMIN = ['admin'] as const;

export function ssoRouter(deps: SsoRouterDeps): ApiRouter {
  const api = new ApiRouter();

  api.add(
    {
      method: 'get',
      path: '/api/auth/sso',
      summary: "The sign-in an email's district offers: its provider button (if any) and whether a password works",
      access: 'public',
      query: ssoLookupQuery,
      response: ssoLookupResponse,
      errors: [429],
    },
    async ({ query, req }) => {
      const limit = await deps.lookupLimit.consume(clientAddress(req));
      if (!limit.allowed) {
        throw new TooManyRequestsError(
          `Too many look-ups. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
          limit.retryAfterSeconds,
        );
      }
      return lookUpSignIn(deps, query.email);
    },
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/sso',
      summary: "The district's SSO settings (the client secret is never returned, only hasSecret)",
      access: ADMIN,
      response: ssoSettingsResponse,
      errors: [404],
    },
    ({ caller }) => getSsoSettings(deps, caller.tenantId),
  );

  api.add(
    {
      method: 'put',
      path: '/api/district/sso',
      summary:
        "Create or replace the district's SSO connection (checked by discovery at the issuer; the secret is stored encrypted)",
      access: ADMIN,
      body: ssoConnectionBody,
      response: ssoSettingsResponse,
      errors: [404, 409, 503],
    },
    ({ caller, body }) => saveSsoConnection(deps, caller.tenantId, body),
  );

  api.add(
    {
      method: 'delete',
      path: '/api/district/sso',
      summary: "Remove the district's SSO connection (refused while password sign-in is off)",
      access: ADMIN,
      errors: [404, 409],
    },
    async ({ caller }) => {
      await removeSsoConnection(deps, caller.tenantId);
      return undefined;
    },
  );

  api.add(
    {
      method: 'put',
      path: '/api/district/sso/password-sign-in',
      summary: "Turn the district members' password sign-in on or off (off only while an enabled connection exists)",
      access: ADMIN,
      body: passwordSignInBody,
      response: ssoSettingsResponse,
      errors: [404, 409],
    },
    ({ caller, body }) => setPasswordSignIn(deps, caller.tenantId, body.passwordSignIn),
  );

  return api;
}
