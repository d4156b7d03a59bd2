// The integrations service's own environment variables (merged with service-kit's base ones).
import { envBoolean } from '@checkpoint/service-kit';
import { z } from 'zod';

export const integrationsConfigSchema = z.object({
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:8080')
    .transform((v) => v.replace(/\/+$/, ''))
    .describe(
      'Public origin of the app (the gateway): the LTI launch URL given to platforms is PUBLIC_URL/api/lti/launch, and a login must target this origin.',
    ),
  LTI_ALLOW_LOOPBACK: envBoolean(false).describe(
    "Plain http and this machine's addresses for a platform's JWKS, authorization and token URLs (development and tests only).",
  ),
  LTI_STATE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .max(900)
    .default(300)
    .describe('How long an OIDC login state waits for its launch; it is used once.'),
  LTI_JWKS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(30_000)
    .default(5_000)
    .describe("Time allowed to read a platform's JWKS."),
  LTI_CLOCK_TOLERANCE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300)
    .default(60)
    .describe("Clock skew allowed between the platform and the tool when checking an id_token's exp and iat."),
  IDENTITY_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'Base URL of the identity service (its internal routes): a verified launch signs the LMS user in there. Unset: launches are verified but sign no one in (503).',
    ),
  CLASS_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "Base URL of the class service (its internal routes): an LMS course's class is created and joined there. Unset: launches are verified but sign no one in (503).",
    ),
  LTI_PEER_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(30_000)
    .default(5_000)
    .describe('Time allowed for a call to identity or class during a launch.'),
  LTI_REGISTRATION_LINK_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .max(30 * 86_400)
    .default(7 * 86_400)
    .describe('How long a dynamic registration link made in Admin → Integrations stays usable (it is used once).'),
  LTI_REGISTRATION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(30_000)
    .default(10_000)
    .describe(
      'Time allowed for each call to a platform during dynamic registration (its configuration, its registration endpoint).',
    ),
});

export type IntegrationsConfig = z.infer<typeof integrationsConfigSchema>;
