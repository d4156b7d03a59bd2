// The district admin's LTI platform registrations: /api/integrations/lti/registrations.
import { ApiRouter } from '@checkpoint/service-kit';
import type { RegistrationUseCases } from '../domain/registrations.use-case.ts';
import {
  registrationBody,
  registrationListSchema,
  registrationParams,
  registrationSchema,
} from './registrations.schemas.ts';

const BASE = '/api/integrations/lti/registrations';

export function registrationsRouter(uc: RegistrationUseCases, publicUrl: string): ApiRouter {
  const tool = {
    loginUrl: `${publicUrl}/api/lti/login`,
    launchUrl: `${publicUrl}/api/lti/launch`,
    jwksUrl: `${publicUrl}/api/lti/jwks`,
  };
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: BASE,
        summary: "The district's LTI 1.3 platform registrations, and what to tell a platform about the tool",
        access: ['admin'],
        response: registrationListSchema,
      },
      async ({ caller }) => ({ registrations: await uc.list(caller.tenantId), tool }),
    )
    .add(
      {
        method: 'post',
        path: BASE,
        summary: 'Register an LTI 1.3 platform (LMS) by hand for the district',
        access: ['admin'],
        body: registrationBody,
        status: 201,
        response: registrationSchema,
        errors: [409],
      },
      ({ caller, body }) => uc.create(caller.tenantId, body),
    )
    .add(
      {
        method: 'get',
        path: `${BASE}/:id`,
        summary: "One of the district's LTI platform registrations",
        access: ['admin'],
        params: registrationParams,
        response: registrationSchema,
        errors: [404],
      },
      ({ caller, params }) => uc.get(caller.tenantId, params.id),
    )
    .add(
      {
        method: 'put',
        path: `${BASE}/:id`,
        summary: "Change one of the district's LTI platform registrations",
        access: ['admin'],
        params: registrationParams,
        body: registrationBody,
        response: registrationSchema,
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.update(caller.tenantId, params.id, body),
    )
    .add(
      {
        method: 'delete',
        path: `${BASE}/:id`,
        summary: "Remove one of the district's LTI platform registrations (its launches go with it)",
        access: ['admin'],
        params: registrationParams,
        errors: [404],
      },
      ({ caller, params }) => uc.remove(caller.tenantId, params.id),
    );
}
