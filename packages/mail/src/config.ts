// The mail environment variables, validated with zod (errors name the variable).
import { z } from 'zod';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === '' || v === undefined ? undefined : v));

export const DEFAULT_MAIL_FROM = 'Checkpoint <no-reply@localhost>';

export const mailConfigSchema = z.object({
  SMTP_URL: optionalText
    .refine((v) => v === undefined || /^smtps?:\/\/[^/\s]+\/?$/i.test(safeUrl(v)), {
      message: 'must be smtp://user:pass@host:port or smtps://user:pass@host:port',
    })
    .describe(
      'SMTP server for outgoing mail, smtp://user:pass@host:port or smtps://… (secret: may carry a password). Unset: mail waits in the queue (the all-in-one starts a local one).',
    ),
  MAIL_FROM: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? DEFAULT_MAIL_FROM : v.trim()))
    .describe('Sender of outgoing mail, e.g. "Checkpoint <no-reply@school.example>".'),
});

export type MailConfig = z.infer<typeof mailConfigSchema>;

/** Parses the mail variables from an environment; throws an Error naming each bad variable. */
export function readMailConfig(env: Record<string, string | undefined>): MailConfig {
  const result = mailConfigSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid mail configuration: ${problems.join('; ')}`);
}

function safeUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return value;
  }
}

/** SMTP_URL without its password, for logs. */
export function redactSmtpUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(invalid SMTP_URL)';
  }
}
