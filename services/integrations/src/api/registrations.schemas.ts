// The district admin's LTI 1.3 platform registrations (by hand): validation and OpenAPI.
import { z } from 'zod';

const text = (max: number) => z.string().trim().min(1).max(max);
const url = text(2000).describe('An https URL (plain http on loopback only where the service allows it).');

export const registrationBody = z
  .object({
    issuer: url.describe("The platform's issuer (`iss` of its id_tokens), an https URL."),
    clientId: text(255).describe('The client id the platform gave the tool (`aud` of its id_tokens).'),
    deploymentIds: z
      .array(text(255))
      .min(1)
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, 'A deployment id is listed twice')
      .describe('The deployment ids of the tool in that platform that may launch it.'),
    jwksUrl: url.describe("The platform's public keys (JWKS URL)."),
    authorizationUrl: url.describe("The platform's OIDC authorization URL (where a login is sent)."),
    tokenUrl: url.describe("The platform's OAuth 2 token URL (for services the tool calls)."),
    adminRoleFromLms: z
      .boolean()
      .default(false)
      .describe(
        "Whether the LMS's Administrator role makes a Checkpoint district admin at a launch (off: an LMS administrator is a teacher).",
      ),
  })
  .strict()
  .meta({ id: 'LtiRegistrationInput' });
export type RegistrationInput = z.infer<typeof registrationBody>;

export const registrationSchema = z
  .object({
    id: z.uuid(),
    issuer: z.string(),
    clientId: z.string(),
    deploymentIds: z.array(z.string()),
    jwksUrl: z.string(),
    authorizationUrl: z.string(),
    tokenUrl: z.string(),
    adminRoleFromLms: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'LtiRegistration' });
export type Registration = z.infer<typeof registrationSchema>;

export const registrationListSchema = z
  .object({
    registrations: z.array(registrationSchema),
    tool: z
      .object({
        loginUrl: z.string().describe('OIDC login initiation URL to give the platform.'),
        launchUrl: z.string().describe('Redirect (launch) URL to give the platform.'),
        jwksUrl: z.string().describe("The tool's public keys URL to give the platform."),
      })
      .describe('What the platform is told about the tool.'),
  })
  .meta({ id: 'LtiRegistrationList' });

export const registrationParams = z.object({ id: z.string().max(100) });

export const jwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).meta({ id: 'JsonWebKeySet' });
