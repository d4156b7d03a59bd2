// Scores to the LMS (AGS): what a teacher sees of an assessment's scores and how they resend them,
// and a district admin's failures (docs/adr/014-lti.md, "Scores to the LMS (AGS)").
import { z } from 'zod';

export const scoreStatusSchema = z
  .object({
    id: z.uuid(),
    userId: z.uuid().describe('The Checkpoint student.'),
    lmsUserId: z.string().describe("The student's user id in the LMS (the launch's sub)."),
    assessmentId: z.uuid(),
    lineitemUrl: z.string().describe('The LMS line item the score goes to.'),
    status: z
      .enum(['pending', 'sent', 'failed'])
      .describe('pending: waiting to be posted (or to be tried again); sent: the LMS took it; failed: given up.'),
    scoreGiven: z.number().nullable().describe('Points given (null: the result was withdrawn, no score).'),
    scoreMaximum: z.number().nullable(),
    gradingProgress: z.string().describe('FullyGraded, PendingManual (answers wait for review) or NotReady.'),
    scoreTimestamp: z.iso.datetime().describe('When the score was made (the LMS ignores an older one).'),
    attempts: z.number().int().describe('Posts tried so far.'),
    nextAttemptAt: z.iso.datetime().nullable().describe('When a pending score is tried (again).'),
    lastError: z.string().nullable().describe('Why the last post failed.'),
    sentAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'LtiScoreStatus' });

export const scoreStatusListSchema = z
  .object({ scores: z.array(scoreStatusSchema) })
  .meta({ id: 'LtiScoreStatusList' });

export const assessmentParams = z.object({ assessmentId: z.string().max(100) });

export const resendBody = z
  .object({
    userId: z.uuid().optional().describe("Only this student's score (default: every unsent score of the assessment)."),
  })
  .strict()
  .meta({ id: 'LtiScoreResendInput' });

export const resendResultSchema = z
  .object({ resent: z.number().int().describe('Scores queued to be posted now.') })
  .meta({ id: 'LtiScoreResendResult' });
