// LTI Dynamic Registration: the platform's call and the admin's one-time links.
import { z } from 'zod';

const param = (max: number) => z.string().min(1).max(max);

export const registerQuery = z
  .object({
    openid_configuration: param(2000).describe("The platform's OpenID configuration URL (the platform adds it)."),
    registration_token: param(4000)
      .optional()
      .describe('The one-time token the platform gives for its registration endpoint (the platform adds it).'),
    rt: param(200).describe("Checkpoint's one-time link token, naming the district (part of the link the admin gave)."),
  })
  .meta({ id: 'LtiDynamicRegistration' });

export const registrationLinkSchema = z
  .object({
    url: z.string().describe("The dynamic registration URL to give the LMS's admin (shown once)."),
    expiresAt: z.iso.datetime().describe('After this, the link is refused; it is used once.'),
  })
  .meta({ id: 'LtiRegistrationLink' });
