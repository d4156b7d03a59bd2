// A class's LMS roster (NRPS, docs/adr/014-lti.md): the teacher's status and on-demand sync.
import { z } from 'zod';

export const rosterClassParams = z.object({ classId: z.uuid().describe('The Checkpoint class') });

const outcome = z
  .object({
    ok: z.boolean(),
    added: z.number().int(),
    kept: z.number().int(),
    skipped: z.number().int(),
    error: z.string().optional().describe('The code of the refusal that stopped the sync'),
  })
  .meta({ id: 'LtiRosterSyncOutcome' });

export const rosterStatusSchema = z
  .object({
    classId: z.uuid(),
    courses: z.array(
      z.object({
        contextId: z.string(),
        contextTitle: z.string().nullable(),
        rosterAvailable: z.boolean().describe('The LMS offered the course’s roster (NRPS) in an instructor’s launch'),
        lastSyncedAt: z.string().nullable(),
        lastOutcome: outcome.nullable(),
      }),
    ),
  })
  .meta({ id: 'LtiRosterStatus' });

const member = { lmsUserId: z.string(), name: z.string().nullable() };
export const rosterSyncSchema = z
  .object({
    courses: z.array(
      z.object({
        classId: z.uuid(),
        contextId: z.string(),
        contextTitle: z.string().nullable(),
        syncedAt: z.string(),
        added: z.array(z.object({ ...member, userId: z.uuid(), accountCreated: z.boolean() })),
        kept: z.array(z.object({ ...member, userId: z.uuid() })),
        skipped: z.array(
          z.object({
            ...member,
            reason: z.enum([
              'inactive',
              'deleted',
              'not_a_learner',
              'no_user_id',
              'account_not_student',
              'account_refused',
              'class_refused',
            ]),
            detail: z.string(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'LtiRosterSync' });
