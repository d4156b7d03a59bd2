// Request and response schemas of the class calls (spec §3, §5, §7); they drive validation and
// the OpenAPI document.
import { z } from 'zod';
import { LIMITS } from '../domain/class.ts';
import { JOIN_CODE_MAX_LENGTH } from '../domain/join-code.ts';

const text = (required: string, max: number, label: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, `${label} must be at most ${max} characters`);

const name = text('Class name is required', LIMITS.name, 'Class name');
const subject = text('Subject is required', LIMITS.subject, 'Subject');

/** POST: the dashboard modal lets period be empty (spec §5); empty means none. */
export const createClassBody = z
  .object({
    name,
    subject,
    period: z
      .string({ error: 'Period must be text' })
      .trim()
      .max(LIMITS.period, `Period must be at most ${LIMITS.period} characters`)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .meta({ id: 'CreateClass' });

/** PUT: every field required (spec §5, class edit form). */
export const updateClassBody = z
  .object({ name, subject, period: text('Period is required', LIMITS.period, 'Period') })
  .meta({ id: 'UpdateClass' });

export const joinBody = z
  .object({
    // Anything longer than a code cannot be one; the normalization and lookup decide the rest.
    joinCode: z
      .string({ error: 'Join code is required' })
      .max(JOIN_CODE_MAX_LENGTH + 32, 'Join code must be at most 8 characters'),
  })
  .meta({ id: 'JoinClass' });

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
  })
  .meta({ id: 'Class' });

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
