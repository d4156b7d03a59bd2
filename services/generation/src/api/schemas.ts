// Request and response schemas of the generation calls; they drive validation and OpenAPI.
import { z } from 'zod';
import { FAILURE_REASONS } from '../domain/errors.ts';
import { PRACTICE_TYPES } from '../domain/practice.ts';
import { QUESTION_TYPES } from '../domain/question.ts';

/** Ids are UUIDs; anything else is answered 404 by the handler, like an id that is not yours. */
export const idParams = z.object({ id: z.string().meta({ format: 'uuid' }) });
export const resultParams = z.object({ resultId: z.string().meta({ format: 'uuid' }) });
const practiceType = z.enum(PRACTICE_TYPES, { error: 'type must be support or enrichment' });
export const typeParams = z.object({ id: z.string().meta({ format: 'uuid' }), type: practiceType });

const answer = z.union([z.string().max(2_000), z.number(), z.boolean()]).transform((v) => String(v));
const answers = z
  .record(z.string().max(100), answer)
  .refine((r) => Object.keys(r).length <= 100, 'At most 100 answers');

export const completionBody = z
  .object({
    responses: answers,
    // The spec's payload carries the client's score: accepted and ignored, the server scores.
    score: z.unknown().optional().describe('Ignored: the server scores the responses against its stored keys'),
    type: practiceType,
    // The material's version the answers were given to; an older one is refused (409), not mis-scored.
    version: z.string().max(128).optional(),
  })
  .meta({ id: 'SupportCompletion' });

export const submitBody = z
  .object({
    answers,
    // The round the page shows (GET's round): a submit for a replaced round is refused (409).
    round: z.number().int().min(0).max(1000).optional(),
  })
  .meta({ id: 'SupportContentSubmit' });

export const jobSchema = z
  .object({
    jobId: z.uuid(),
    assessmentId: z.uuid(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']),
    provider: z.enum(['openai', 'offline']).or(z.string()),
    questionSource: z
      .enum(['model', 'text'])
      .describe("What writes the questions: 'model' (the openai provider) or 'text' (rules over the teacher's text)"),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    questionType: z.string(),
    questionCount: z.number().int(),
    updatedAt: z.iso.datetime(),
    error: z.object({ reason: z.enum(FAILURE_REASONS), message: z.string() }).optional(),
  })
  .meta({ id: 'GenerationJob' });

const practiceQuestion = z.object({
  id: z.string(),
  question: z.string(),
  type: z.enum(QUESTION_TYPES),
  options: z.array(z.string()),
  correctAnswer: z
    .string()
    .optional()
    .describe("The class's teacher only: a student's answers are scored on the server (support-completion)"),
});

export const materialSchema = z
  .object({
    type: practiceType,
    provider: z.string(),
    /** Changes when the teacher edits the lesson and the material is written again. */
    version: z.string(),
    reading: z.string(),
    questions: z.array(practiceQuestion),
  })
  .meta({ id: 'PracticeMaterial' });

export const completionResultSchema = z
  .object({
    score: z.number().int(),
    correct: z.number().int(),
    total: z.number().int(),
    passed: z.boolean(),
    message: z.string(),
  })
  .meta({ id: 'PracticeScore' });

export const supportContentSchema = z
  .object({
    resultId: z.uuid(),
    assessmentId: z.uuid(),
    performanceLevel: z.enum(['below', 'at', 'above']).or(z.string()),
    type: practiceType,
    provider: z.string(),
    reading: z.string(),
    questions: z.array(z.object({ question: z.string(), type: z.enum(QUESTION_TYPES), options: z.array(z.string()) })),
    lastAttempt: z.object({ score: z.number().int(), passed: z.boolean() }).nullable(),
    /** How many times the student started again ("Try Again" writes the practice anew). */
    round: z.number().int().min(0),
  })
  .meta({ id: 'SupportContent' });

export const messageSchema = z.object({ message: z.string() }).meta({ id: 'Message' });

export const recommendationSchema = z
  .object({
    type: practiceType,
    text: z.string(),
    provider: z.string(),
    generatedAt: z.iso.datetime(),
    summary: z.object({
      total: z.number().int(),
      below: z.number().int(),
      at: z.number().int(),
      /** Of `at`: results raised from below by support practice. */
      raised: z.number().int(),
      above: z.number().int(),
      averagePercent: z.number(),
      mostMissed: z.array(
        z.object({
          questionId: z.string(),
          text: z.string(),
          correctAnswer: z.string(),
          missed: z.number().int(),
          answered: z.number().int(),
        }),
      ),
      mostCorrect: z.array(
        z.object({
          questionId: z.string(),
          text: z.string(),
          correctAnswer: z.string(),
          missed: z.number().int(),
          answered: z.number().int(),
        }),
      ),
    }),
  })
  .meta({ id: 'Recommendation' });
