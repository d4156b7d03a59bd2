// The LTI sign-in's inputs (docs/adr/014-lti.md): the internal call integrations makes after a
// verified launch, and the handoff the browser redeems.
import { z } from 'zod';
import { USER_ROLES } from '../domain/user.ts';

/** `POST /internal/lti/sign-in` (integrations only, service token). */
export const ltiSignInBody = z.strictObject({
  tenantId: z.uuid(),
  issuer: z.string().min(1).max(255),
  clientId: z.string().min(1).max(255),
  subject: z.string().min(1).max(255),
  email: z.string().max(254).optional(),
  firstName: z.string().max(200).optional(),
  lastName: z.string().max(200).optional(),
  role: z.enum(USER_ROLES),
});

/** `POST /internal/lti/handoffs` (integrations only): a one-time sign-in of an account of the tenant. */
export const ltiHandoffBody = z.strictObject({
  tenantId: z.uuid(),
  userId: z.uuid(),
  returnTo: z.string().min(1).max(2000),
});

/** `GET /api/auth/lti/handoff?token=…` */
export const ltiHandoffQuery = z.object({ token: z.string().min(1).max(200) });
