// Request and response schemas of /api/auth/** (with the forms' validation texts).
import { EMAIL, nameText } from '@checkpoint/service-kit';
import { z } from 'zod';
import { LOCALES } from '../domain/locales.ts';

const firstName = nameText(100, {
  required: 'First name is required',
  tooLong: 'First name must be at most 100 characters',
});
const lastName = nameText(100, {
  required: 'Last name is required',
  tooLong: 'Last name must be at most 100 characters',
});
/** z.email()'s rule as a pattern the document carries (see service-kit's text.ts), trimmed. */
const email = z
  .string({ error: 'Invalid email address' })
  .max(254, 'Email must be at most 254 characters')
  .regex(EMAIL, 'Invalid email address')
  .trim();
// argon2 has no length limit of its own; bound the work an attacker can ask for.
const password = z
  .string()
  .min(6, 'Password must be at least 6 characters')
  .max(256, 'Password must be at most 256 characters');
const role = z.enum(['teacher', 'student'], { error: 'Please select a role' });

/**
 * A student's age band (docs/adr/015): a student under 13 signs up with an email only at their
 * district's address (the school's authorization); otherwise their teacher makes their account or
 * prints their login card. Left out by clients older than the field: no band is asked of them.
 */
const ageBand = z
  .enum(['under_13', '13_or_older'], { error: 'Please select your age' })
  .optional()
  .describe('Students only: under 13, or 13 or older');
const localeField = z.enum(LOCALES, { error: `locale must be one of: ${LOCALES.join(', ')}` });
export const signUpBody = z.object({
  firstName,
  lastName,
  email,
  password,
  role,
  ageBand,
  locale: localeField
    .optional()
    .describe("The interface language the form was filled in: the mail's language and the new account's"),
});
export const logInBody = z.object({
  email,
  password: z.string().min(1, 'Password must be at least 6 characters').max(256),
});
/** currentPassword: needed when the email changes (re-authentication); names change without it. */
export const updateUserBody = z
  .object({
    firstName: firstName.optional(),
    lastName: lastName.optional(),
    email: email.optional(),
    currentPassword: z.string().max(256, 'Password must be at most 256 characters').optional(),
    /** The interface language; mails to the user go in it too. */
    locale: localeField.optional(),
  })
  .refine((change) => Object.keys(change).length > 0, 'Send at least one field')
  .meta({ minProperties: 1 });
export const preferencesBody = z.object({
  emailNotifications: z.boolean(),
  assessmentReminders: z.boolean(),
  studentSubmissions: z.boolean(),
  darkMode: z.boolean(),
});
/** A change to some of the switches: only the keys sent are written, so two quick saves cannot undo each other. */
export const preferencesChange = preferencesBody
  .partial()
  .strict()
  .refine((change) => Object.keys(change).length > 0, 'Send at least one preference')
  .meta({ minProperties: 1 });
export const googleCompleteBody = z.object({ role });
export const googleStartQuery = z.object({
  email_hint: z.string().max(254).optional(),
  login_hint: z.string().max(254).optional(),
});
export const googleCallbackQuery = z.record(z.string(), z.string());

export const userSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    role: z.enum(['student', 'teacher', 'admin']),
    profileImageUrl: z.string().nullable(),
    createdAt: z.string(),
    tenantId: z.uuid(),
    accountType: z.enum(['district', 'school', 'individual']),
    preferences: preferencesBody,
    /** The address was proven by a mail link, a password reset, an invitation, the roster or SSO. */
    emailVerified: z.boolean(),
    /** The interface language: the one chosen (PUT), else the browser's (Accept-Language), else en. */
    locale: z.enum(LOCALES),
    /**
     * GET /api/auth/user only: the user had signed in before this session (a dashboard says
     * "Welcome back" then, not right after the sign-up).
     */
    returning: z.boolean().optional(),
    /**
     * GET and PUT /api/auth/user only: the new address of an email change that waits for the link
     * mailed to it (the sign-in address is `email` until then). PUT says null when none waits, GET
     * leaves it out.
     */
    pendingEmail: z.string().nullable().optional(),
  })
  .meta({ id: 'User' });

export const userEnvelope = z.object({ user: userSchema });

export const refreshBody = z.object({ refreshToken: z.string().min(1).max(200) });

/** `GET /internal/sessions/revoked?since=…`: without since, every revocation whose tokens may still live. */
export const revokedQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
  /** Hold the answer up to this many seconds until a session revoked after `after` exists. */
  wait: z.coerce.number().int().min(0).max(25).optional(),
  after: z.iso.datetime({ offset: true }).optional(),
});

/** A password sign-up at a district's domain: no account yet, a link went to the address (202). */
export const verificationSentSchema = z
  .object({ verificationSent: z.literal(true), email: z.string() })
  .meta({ id: 'VerificationSent' });

/** An invitation link's token (base64url of 32 bytes; bounded so a long path is a 400, not work). */
const invitationToken = z
  .string({ error: 'Invitation token is required' })
  .min(1, 'Invitation token is required')
  .max(200, 'Invitation token must be at most 200 characters');
export const invitationParams = z.object({ token: invitationToken });
export const invitationSchema = z
  .object({ email: z.string(), districtName: z.string(), role: z.enum(['student', 'teacher', 'admin']) })
  .meta({ id: 'Invitation' });
export const invitationAcceptBody = z.object({ token: invitationToken, firstName, lastName, password });
