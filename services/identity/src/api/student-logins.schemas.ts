// Request and response schemas of student accounts without email and their sign-in (ADR 015).
import { nameText } from '@checkpoint/service-kit';
import { z } from 'zod';
import { PICTURES, WORDS, normalizeWords } from '../domain/student-logins.ts';

const firstName = nameText(100, {
  required: 'First name is required',
  tooLong: 'First name must be at most 100 characters',
});
const lastName = z.string().trim().max(100, 'Last name must be at most 100 characters').default('');
const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(40, 'Username must be at most 40 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may have letters, digits, dots, dashes and underscores only');
const picture = z.enum(PICTURES, { error: 'Pick one of the pictures' });
const words = z
  .string({ error: 'Two short words are required' })
  .max(40, 'Two short words are required')
  // Documented as it is checked: two words of letters, any case, spaces between and around.
  .regex(/^\s*[A-Za-z]{2,12}\s+[A-Za-z]{2,12}\s*$/, 'Two short words (letters only, 2 to 12 each) are required')
  .transform(normalizeWords)
  .pipe(z.string().regex(WORDS, 'Two short words (letters only, 2 to 12 each) are required'));

export const secretBody = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('picture'), picture }),
    z.object({ kind: z.literal('words'), words }),
  ])
  .meta({ id: 'StudentSecret' });

export const classParams = z.object({ id: z.uuid('Class id must be a UUID') });
export const studentParams = z.object({
  id: z.uuid('Class id must be a UUID'),
  studentId: z.uuid('Student id must be a UUID'),
});

export const newStudentLoginBody = z.object({ firstName, lastName, username, secret: secretBody });
export const setUpLoginBody = z.object({ username, secret: secretBody });
export const adminSignInBody = z.object({
  username: username.optional().describe('Required when the student has no picture or words yet; else renames'),
  secret: secretBody,
});
export const districtStudentParams = z.object({ id: z.uuid('Student id must be a UUID') });
export const resetSecretBody = z.object({ secret: secretBody });

export const studentLoginSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    username: z.string(),
    signInWith: z.enum(['picture', 'words']).describe('A picture or two words (set by the teacher)'),
    createdAt: z.string(),
    signInChangedAt: z.string().describe('When the picture or words were last set (made or reset)'),
  })
  .meta({ id: 'StudentLogin' });

export const studentLoginsSchema = z
  .object({
    classCode: z.string(),
    students: z.array(studentLoginSchema),
    withoutSignIn: z
      .array(z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() }))
      .describe(
        'Students of the class with no e-mail to sign in with (rostered without one, or from an LMS) and no picture or words yet',
      ),
    cards: z.object({
      inForce: z.number().int().describe('Printed cards that still sign in'),
      expiresAt: z.string().nullable().describe('When the latest of them stops working'),
    }),
  })
  .meta({ id: 'StudentLogins' });

export const loginCardsSchema = z
  .object({
    classCode: z.string(),
    cards: z.array(
      z.object({
        studentId: z.uuid(),
        firstName: z.string(),
        lastName: z.string(),
        username: z.string(),
        url: z.string().describe('The first-party address the card’s QR holds (its secret is shown only now)'),
        expiresAt: z.string(),
      }),
    ),
  })
  .meta({ id: 'LoginCards' });

export const revokedCardsSchema = z.object({ revoked: z.number().int() }).meta({ id: 'RevokedLoginCards' });

const classCode = z
  .string({ error: 'Class code is required' })
  .trim()
  .min(1, 'Class code is required')
  .max(20, 'Class code must be at most 20 characters');

export const classCodeBody = z.object({ classCode });
export const classCodeRosterSchema = z
  .object({
    students: z.array(z.object({ id: z.uuid(), name: z.string().describe('First name and last initial only') })),
  })
  .meta({ id: 'ClassCodeRoster' });
export const classCodeLoginBody = z.object({
  classCode,
  studentId: z.uuid('Pick your name'),
  secret: secretBody,
});
export const loginCardBody = z.object({
  token: z.string({ error: 'Card is required' }).min(1, 'Card is required').max(200, 'Card is not valid'),
});
