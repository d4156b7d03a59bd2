// A student's accommodations (#32 item 1): GET|PUT /api/classes/{id}/students/{studentId}/accommodations,
// for a teacher of the class (its owner or a co-teacher) and the district's admin. The student's
// one set applies to every assessment they take, in any class.
import { ApiRouter, type Caller } from '@checkpoint/service-kit';
import { z } from 'zod';
import {
  MAX_EXTRA_TIME,
  MAX_REDUCED_CHOICES,
  StudentNotFoundError,
  type AccommodationsUseCases,
} from '../domain/accommodations.ts';
import { ClassNotFoundError } from '../domain/errors.ts';
import { uuidOr404 } from './ids.ts';

const TEACHERS = ['teacher', 'admin'] as const;
const STUDENTS = ['student'] as const;
const params = z.object({
  id: z.string().meta({ format: 'uuid' }),
  studentId: z.string().meta({ format: 'uuid' }),
});
const flag = (name: string) => z.boolean({ error: `${name} must be true or false` });
const EXTRA_TIME = `extraTime must be a factor from 1 to ${MAX_EXTRA_TIME} (1.5: half as long again) or "none"`;

const fields = {
  readAloud: flag('readAloud').describe('Questions, options and reading text spoken on request'),
  reducedChoices: z
    .number({ error: `reducedChoices must be a whole number from 0 to ${MAX_REDUCED_CHOICES}` })
    .int(`reducedChoices must be a whole number from 0 to ${MAX_REDUCED_CHOICES}`)
    .min(0, `reducedChoices must be a whole number from 0 to ${MAX_REDUCED_CHOICES}`)
    .max(MAX_REDUCED_CHOICES, `reducedChoices must be a whole number from 0 to ${MAX_REDUCED_CHOICES}`)
    .describe('Distractors each multiple-choice question shows fewer (the key always stays)'),
  extraTime: z
    .union([z.literal('none'), z.number().min(1).max(MAX_EXTRA_TIME).multipleOf(0.05)], { error: EXTRA_TIME })
    .describe('Where an assessment has a time limit: the student’s is multiplied by this, or "none" (no limit)'),
  largeText: flag('largeText'),
  highContrast: flag('highContrast'),
  lineGuide: flag('lineGuide').describe('A reading guide that follows the focus'),
  answerMasking: flag('answerMasking').describe('Options hidden until the student reveals them'),
};
export const accommodationsSchema = z.object(fields);
export const accommodationsBody = z
  .object(
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    },
  )
  .strict()
  .describe('Any of the accommodations; each left out keeps the stored one');

export const classStudentAccommodationsSchema = z.object({
  studentId: z.string().meta({ format: 'uuid' }),
  firstName: z.string(),
  lastName: z.string(),
  ...fields,
});

const by = (caller: Caller) => ({ userId: caller.userId, tenantId: caller.tenantId, role: caller.role });
const PATH = '/api/classes/:id/students/:studentId/accommodations';

export function accommodationsRouter(uc: AccommodationsUseCases): ApiRouter {
  const ids = (p: { id: string; studentId: string }) =>
    [
      uuidOr404(p.id, () => new StudentNotFoundError()),
      uuidOr404(p.studentId, () => new StudentNotFoundError()),
    ] as const;
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/accommodations',
        summary:
          "The class's students with their accommodations (none set: all off), for a teacher of the class or the district's admin",
        access: TEACHERS,
        params: z.object({ id: z.string().meta({ format: 'uuid' }) }),
        response: z.array(classStudentAccommodationsSchema),
        errors: [404],
      },
      ({ caller, params: p }) =>
        uc.list(
          by(caller),
          uuidOr404(p.id, () => new ClassNotFoundError()),
        ),
    )
    .add(
      {
        method: 'get',
        path: '/api/student/accommodations',
        summary:
          "The signed-in student's own accommodations (none set: all off), for the taking and practice pages; no one else's",
        access: STUDENTS,
        response: accommodationsSchema,
      },
      ({ caller }) => uc.own(caller.userId),
    )
    .add(
      {
        method: 'get',
        path: PATH,
        summary:
          "A student's accommodations (none set: all off), for a teacher of the class or the district's admin; they apply to every assessment the student takes",
        access: TEACHERS,
        params,
        response: accommodationsSchema,
        errors: [404],
      },
      ({ caller, params: p }) => uc.get(by(caller), ...ids(p)),
    )
    .add(
      {
        method: 'put',
        path: PATH,
        summary:
          "Set a student's accommodations (each field left out keeps the stored one), as a teacher of the class or the district's admin",
        access: TEACHERS,
        params,
        body: accommodationsBody,
        response: accommodationsSchema,
        errors: [404],
      },
      ({ caller, params: p, body }) => uc.set(by(caller), ...ids(p), body),
    );
}
