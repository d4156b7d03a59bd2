// The identity service's own environment variables (merged with service-kit's base ones).
import { z } from 'zod';
import { mailConfigSchema } from '@checkpoint/mail';
import { envBoolean } from '@checkpoint/service-kit';
import { decodeSecretsKey } from './domain/secret-box.ts';

const positiveInt = (defaultValue: number, max: number) =>
  z.coerce.number().int().min(1).max(max).default(defaultValue);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** A 32-byte key in base64 or base64url (e.g. `openssl rand -base64 32`); empty: none. */
const secretsKey = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    const key = decodeSecretsKey(v);
    if (!key) {
      ctx.addIssue({ code: 'custom', message: 'must be 32 bytes in base64 (openssl rand -base64 32)' });
      return z.NEVER;
    }
    return key;
  });

export const identityConfigSchema = z.object({
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:8080')
    .transform((v) => v.replace(/\/+$/, ''))
    .describe('Public origin of the app (the gateway), used for the OpenID Connect redirect URI.'),
  COOKIE_SECURE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const s = v.toLowerCase();
      if (['true', '1', 'yes'].includes(s)) return true;
      if (['false', '0', 'no'].includes(s)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    })
    .describe('Mark cookies Secure and use __Host- names; default true iff PUBLIC_URL is https.'),
  OIDC_ISSUER: z
    .url()
    .default('https://accounts.google.com')
    .describe('Issuer of the platform-wide OpenID Connect provider behind "Sign in with Google" (discovery is used).'),
  OIDC_CLIENT_ID: optionalText.describe('Client id at OIDC_ISSUER; Google sign-in is off (503) while unset.'),
  OIDC_CLIENT_SECRET: optionalText.describe('Client secret at OIDC_ISSUER (secret).'),
  SECRETS_KEY: secretsKey.describe(
    'Key (32 bytes, base64) sealing secrets at rest (SSO client secrets, AES-256-GCM). `npm start` and `npm run stack` keep one in DATA_DIR/secrets-key. Without it no SSO connection can be saved or used. Secret.',
  ),
  SECRETS_KEY_PREVIOUS: secretsKey.describe(
    'The key SECRETS_KEY replaced (rotation): values sealed under it still open and are sealed again under SECRETS_KEY at start. Secret.',
  ),
  RATE_LIMIT_SSO_LOOKUP_PER_MINUTE: positiveInt(120, 10_000).describe(
    "Look-ups of an email's district sign-in (GET /api/auth/sso) allowed per minute per client address.",
  ),
  SMTP_URL: mailConfigSchema.shape.SMTP_URL,
  MAIL_FROM: mailConfigSchema.shape.MAIL_FROM,
  RATE_LIMIT_EMAIL_PER_MINUTE: positiveInt(5, 10_000).describe(
    'Mails asked for (password reset, verification resend) per minute per email address; six times as many requests per client address on the email link routes.',
  ),
  RATE_LIMIT_LOGIN_PER_MINUTE: positiveInt(10, 10_000).describe(
    'Failed-or-pending sign-in attempts allowed per minute per client address, and ten times as many per account from all addresses together; successful ones are refunded.',
  ),
  RATE_LIMIT_SIGNUP_PER_MINUTE: positiveInt(30, 10_000).describe('Sign-ups allowed per minute per client address.'),
  RATE_LIMIT_OIDC_START_PER_MINUTE: positiveInt(60, 10_000).describe(
    'Google (OpenID Connect) sign-ins started per minute per client address; each stores a pending flow for 10 minutes.',
  ),
  RATE_LIMIT_PROFILE_PER_MINUTE: positiveInt(10, 10_000).describe(
    'Profile changes (PUT /api/auth/user) allowed per minute per user, and three times as many per client address.',
  ),
  RATE_LIMIT_INVITE_PER_MINUTE: positiveInt(30, 10_000).describe(
    'Invitations (POST /api/district/invitations) a district admin may send per minute.',
  ),
  DEMO_SEED: envBoolean(false).describe(
    'When true and there are no users: create the Demo District with its admin, a demo teacher and a student, printed at start.',
  ),
  DEMO_PASSWORD: optionalText.describe(
    'Password of the demo accounts (default: a random one, printed at start). Secret.',
  ),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt(900, 86_400).describe('Lifetime of the access token (JWT) and its cookie.'),
  REFRESH_IDLE_HOURS: positiveInt(12, 24 * 90).describe('A session unused for this long ends (refresh idle timeout).'),
  REFRESH_ABSOLUTE_DAYS: positiveInt(7, 365).describe('A session ends this long after sign-in, used or not.'),
  LOGIN_CARD_DAYS: positiveInt(180, 3650).describe(
    'A printed login card (students without email, docs/adr/015) signs in for this many days.',
  ),
  STUDENT_LOGIN_FAILURES: positiveInt(5, 100).describe(
    'Wrong pictures or words per student in 15 minutes before that student waits out the window.',
  ),
  REFRESH_REUSE_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300)
    .default(30)
    .describe('Reuse of a just-rotated refresh token within this window (parallel requests) is not treated as theft.'),
  ROSTER_UPLOAD_LIMIT_BYTES: positiveInt(104_857_600, 1_073_741_824).describe(
    'Largest OneRoster roster upload (zip or CSV) accepted by POST /api/district/roster/imports, in bytes.',
  ),
  ROSTER_PREVIEW_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(64)
    .max(16_384)
    .default(1_024)
    .describe(
      'Heap limit (MiB) of the worker thread that reads and plans one roster upload; a roster needing more is refused (413).',
    ),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

/** COOKIE_SECURE with its default applied. */
export function cookieSecure(config: Pick<IdentityConfig, 'COOKIE_SECURE' | 'PUBLIC_URL'>): boolean {
  return config.COOKIE_SECURE ?? config.PUBLIC_URL.startsWith('https:');
}
