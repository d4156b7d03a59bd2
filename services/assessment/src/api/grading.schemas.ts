// Grading by hand (docs/architecture.md, "Grading by hand"): the bodies and replies of the
// teacher's regrade, overall feedback, audit and to-review calls.
import { z } from 'zod';
import { FEEDBACK_MAX } from '../domain/grading.use-case.ts';

const feedbackText = z
  .string({ error: 'Feedback must be text' })
  .max(FEEDBACK_MAX, `Feedback must be at most ${FEEDBACK_MAX} characters`);

export const regradeParams = z.object({
  resultId: z.string().meta({ format: 'uuid' }),
  questionId: z.string().meta({ format: 'uuid' }),
});

export const regradeBody = z
  .object({
    earnedPoints: z
      .number({ error: "earnedPoints must be a number from 0 to the question's points" })
      .min(0, 'earnedPoints must be at least 0')
      .describe(
        "The points the answer earns, from 0 (wrong) to the question's points (right); anything between is part points",
      ),
    feedback: feedbackText
      .nullable()
      .optional()
      .describe('Written feedback on this answer, shown to the student; null or blank clears it; left out keeps it'),
  })
  .strict()
  .meta({ id: 'RegradeRequest' });

export const feedbackBody = z
  .object({
    feedback: feedbackText
      .nullable()
      .describe('Written feedback on the whole result, shown to the student; null or blank clears it'),
  })
  .strict()
  .meta({ id: 'ResultFeedbackRequest' });

export const regradeHistorySchema = z
  .array(
    z.object({
      questionId: z.uuid().nullable().describe("The answer changed; null: the result's overall feedback"),
      gradedBy: z.uuid().describe('The teacher who made the change'),
      oldPoints: z.string().nullable().describe('Numeric string; null: the answer was waiting for review'),
      newPoints: z.string().nullable().describe('Numeric string; null: a change of the overall feedback'),
      feedback: z.string().nullable(),
      at: z.iso.datetime(),
    }),
  )
  .meta({ id: 'RegradeHistory' });

export const reviewItemSchema = z
  .object({
    resultId: z.uuid(),
    studentId: z.uuid(),
    student: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() }),
    submittedAt: z.iso.datetime(),
    questionId: z.uuid(),
    position: z.number().int(),
    questionText: z.string(),
    correctAnswer: z.string(),
    acceptedAnswers: z.array(z.string()),
    points: z.string().describe('Numeric string'),
    answer: z.string().nullable(),
  })
  .meta({ id: 'ReviewItem', description: "A short answer waiting for the teacher's review (0 points until then)" });
