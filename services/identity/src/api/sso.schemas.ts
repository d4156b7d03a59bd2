// Request and response schemas of the SSO routes (/api/auth/sso/**, /api/district/sso/**).
import { EMAIL } from '@checkpoint/service-kit';
import { z } from 'zod';

export const ssoLookupQuery = z.object({
  email: z
    .string({ error: 'Invalid email address' })
    .max(254, 'Email must be at most 254 characters')
    .trim()
    .regex(EMAIL, 'Invalid email address'),
});

export const ssoLookupResponse = z
  .object({
    provider: z.object({ name: z.string(), startUrl: z.string() }).nullable(),
    passwordSignIn: z.boolean(),
  })
  .meta({ id: 'SsoLookup' });

export const ssoInitiateQuery = z.object({
  iss: z.string({ error: 'iss is required' }).min(1, 'iss is required').max(2000),
  login_hint: z.string().max(254).optional(),
  target_link_uri: z.string().max(2000).optional(),
});

const domain = z
  .string()
  .trim()
  .max(253)
  .regex(/^@?[a-z0-9.-]+\.[a-z]{2,}$/i, 'Not a domain (e.g. district.org)');

export const ssoConnectionBody = z.object({
  issuer: z.string({ error: 'The issuer is required' }).trim().min(1, 'The issuer is required').max(2000),
  clientId: z.string({ error: 'The client id is required' }).trim().min(1, 'The client id is required').max(500),
  /** Omitted or empty: keep the stored secret (same issuer and client id). */
  clientSecret: z.string().max(2000).optional(),
  emailDomains: z.array(domain).min(1, 'Choose at least one email domain').max(50),
  displayName: z.string().trim().max(100, 'At most 100 characters').optional(),
  enabled: z.boolean().default(true),
});

export const passwordSignInBody = z.object({
  passwordSignIn: z.boolean({ error: 'passwordSignIn must be true or false' }),
});

export const ssoSettingsResponse = z
  .object({
    connection: z
      .object({
        id: z.uuid(),
        issuer: z.string(),
        kind: z.enum(['google', 'entra', 'generic']),
        clientId: z.string(),
        hasSecret: z.boolean(),
        emailDomains: z.array(z.string()),
        displayName: z.string(),
        enabled: z.boolean(),
        updatedAt: z.string(),
        initiateLoginUri: z.string(),
      })
      .nullable(),
    passwordSignIn: z.boolean(),
    districtDomains: z.array(z.string()),
    redirectUri: z.string(),
  })
  .meta({ id: 'SsoSettings' });
