// Request and response schemas of the class calls; they drive validation and
// the OpenAPI document.
import { documentedAs, EMAIL, nameText, requiredText, SPACE } from '@checkpoint/service-kit';
import { z } from 'zod';
import { LIMITS } from '../domain/class.ts';
import {
  JOIN_CODE_BAD_CHARACTER,
  JOIN_CODE_MAX_LENGTH,
  JOIN_CODE_MIN_LENGTH,
  JOIN_CODE_TOO_LONG,
  JOIN_CODE_TOO_SHORT,
  JOIN_CODE_ALPHABET,
  JOIN_CODE_TYPED,
  normalizeJoinCode,
} from '../domain/join-code.ts';

const text = (required: string, max: number, label: string) =>
  requiredText(max, { required, tooLong: `${label} must be at most ${max} characters` });

const name = nameText(LIMITS.name, {
  required: 'Class name is required',
  tooLong: `Class name must be at most ${LIMITS.name} characters`,
});
const subject = text('Subject is required', LIMITS.subject, 'Subject');

/** POST: the dashboard's modal lets period be empty; empty means none. */
export const createClassBody = z
  .object({
    name,
    subject,
    period: z
      .string({ error: 'Period must be text' })
      .max(LIMITS.period, `Period must be at most ${LIMITS.period} characters`)
      .trim()
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .meta({ id: 'CreateClass' });

/** PUT: every field required (the class edit form). */
export const updateClassBody = z
  .object({ name, subject, period: text('Period is required', LIMITS.period, 'Period') })
  .meta({ id: 'UpdateClass' });

/**
 * A join code: 6 to 8 characters, with its messages; the characters are those codes are made of, in
 * any case (upper-cased here). Blanks around the code are dropped first, so the document states
 * the length in its pattern (a maxLength would count them). Only a well-formed code is looked up:
 * an unknown one is 404.
 */
const joinCode = z
  .string({ error: 'Join code is required' })
  .trim()
  .min(JOIN_CODE_MIN_LENGTH, JOIN_CODE_TOO_SHORT)
  .max(JOIN_CODE_MAX_LENGTH, JOIN_CODE_TOO_LONG)
  .regex(JOIN_CODE_TYPED, JOIN_CODE_BAD_CHARACTER)
  .transform(normalizeJoinCode)
  // What the checks above take, as one pattern: 6 to 8 code characters between any blanks.
  .meta(
    documentedAs({
      type: 'string',
      pattern: `^[${SPACE}]*[${JOIN_CODE_ALPHABET}${JOIN_CODE_ALPHABET.toLowerCase()}]{${JOIN_CODE_MIN_LENGTH},${JOIN_CODE_MAX_LENGTH}}[${SPACE}]*$`,
    }),
  );

export const joinBody = z.object({ joinCode }).meta({ id: 'JoinClass' });

/** The signed-out check of a typed code: its class's name, nothing else (docs/security.md). */
export const joinCodeLookupQuery = z.object({ joinCode });
export const joinCodeLookupSchema = z.object({ className: z.string() }).meta({ id: 'JoinCodeLookup' });

/** Ids are UUIDs; anything else is answered 404 by the handler, like an id that is not yours. */
export const idParams = z.object({ id: z.string().meta({ format: 'uuid' }) });
export const memberParams = z.object({
  id: z.string().meta({ format: 'uuid' }),
  studentId: z.string().meta({ format: 'uuid' }),
});

export const classSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    subject: z.string(),
    period: z.string().nullable(),
    joinCode: z.string(),
    createdAt: z.iso.datetime(),
    teacherId: z.uuid(),
    teacherName: z.string().nullable().describe('"First Last"; null while the teacher is not known'),
    studentCount: z.number().int(),
    assessmentCount: z.number().int(),
    belowStandard: z.number().int(),
    atStandard: z.number().int(),
    aboveStandard: z.number().int(),
    archived: z.boolean(),
    coTeaching: z.boolean().describe('The caller co-teaches this class (another teacher owns it)'),
  })
  .meta({ id: 'Class' });

/** Add a co-teacher: the email of a teacher of the class's school or district. */
export const addTeacherBody = z
  .object({
    email: z
      .string({ error: 'Email is required' })
      .max(254, 'Email must be at most 254 characters')
      .regex(EMAIL, 'Invalid email address')
      .trim(),
  })
  .meta({ id: 'AddClassTeacher' });

export const teacherParams = z.object({
  id: z.string().meta({ format: 'uuid' }),
  teacherId: z.string().meta({ format: 'uuid' }),
});

export const classTeacherSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    owner: z.boolean().describe("The class's owner (else a co-teacher)"),
    invitation: z
      .enum(['pending', 'refused'])
      .optional()
      .describe(
        'Absent for a teacher (owner or co-teacher). An address invited instead: pending (mailed the district invitation; a co-teacher once its account exists; id is the invitation, to withdraw it) or refused (not an address the district invites)',
      ),
  })
  .meta({ id: 'ClassTeacher' });

export const memberSchema = z
  .object({
    id: z.uuid(),
    joinedAt: z.iso.datetime(),
    student: z.object({
      id: z.uuid(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      email: z.string().nullable(),
      profileImageUrl: z.string().nullable(),
    }),
  })
  .meta({ id: 'ClassMembership' });

export const enrolmentSchema = z
  .object({
    id: z.uuid(),
    classId: z.uuid(),
    joinedAt: z.iso.datetime(),
    class: z.object({
      name: z.string(),
      period: z.string().nullable(),
      subject: z.string(),
      teacherName: z.string().nullable(),
    }),
  })
  .meta({ id: 'StudentEnrolment' });

export const browseSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    period: z.string().nullable(),
    subject: z.string(),
    teacherId: z.uuid(),
    teacherName: z.string().nullable(),
    studentCount: z.number().int(),
  })
  .meta({ id: 'BrowseClass' });

export const joinResultSchema = z.object({ className: z.string(), classId: z.uuid() }).meta({ id: 'JoinResult' });
