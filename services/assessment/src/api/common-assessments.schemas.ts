// Request and response schemas of the common assessment calls (/api/common-assessments…): a
// district's assessment published to its teachers. Questions are the ordinary question input
// (assessments.schemas.ts), each with the CASE identifiers of the standards it is aligned to.
import { optionalText, requiredText } from '@checkpoint/service-kit';
import { z } from 'zod';
import { MAX_QUESTIONS } from '../domain/questions.ts';
import { newQuestionBody } from './assessments.schemas.ts';

const LIMITS = { title: 200, description: 5_000, label: 120, target: 255, targets: 200 };

// The ordinary new question as it is (with its `standards` and, in the document, each type's rules:
// an extended copy would lose them, and the fuzzer would send true/false keys that are not).
const commonQuestion = newQuestionBody;

const questions = z
  .array(commonQuestion, { error: 'questions must be a list of questions' })
  .min(1, 'A common assessment needs at least one question')
  .max(MAX_QUESTIONS, `A common assessment has at most ${MAX_QUESTIONS} questions`);

export const createCommonAssessmentBody = z
  .object({
    title: requiredText(LIMITS.title, {
      required: 'Title is required',
      tooLong: `Title must be at most ${LIMITS.title} characters`,
    }),
    description: optionalText(LIMITS.description, {
      notText: 'Description must be text',
      tooLong: `Description must be at most ${LIMITS.description} characters`,
    }),
    topic: optionalText(LIMITS.label, {
      notText: 'Topic must be text',
      tooLong: `Topic must be at most ${LIMITS.label} characters`,
    }),
    standard: optionalText(LIMITS.label, {
      notText: 'Standard must be text',
      tooLong: `Standard must be at most ${LIMITS.label} characters`,
    }),
    questions,
  })
  .meta({ id: 'NewCommonAssessment' });

export const replaceCommonQuestionsBody = z.object({ questions }).meta({ id: 'CommonAssessmentQuestionsInput' });

const targetList = (label: string) =>
  z
    .array(
      // Not blank (a pattern the document carries, so generated entries are not blanks either).
      requiredText(LIMITS.target, {
        required: `${label} entries must not be blank`,
        tooLong: `${label} entries are at most ${LIMITS.target} characters`,
      }),
      { error: `${label} must be a list of texts` },
    )
    .max(LIMITS.targets, `${label} lists at most ${LIMITS.targets} entries`)
    .default([]);

export const publishCommonAssessmentBody = z
  .object({
    schools: targetList('schools').describe('School sourcedIds of the roster; empty: every school'),
    grades: targetList('grades').describe('Grades (as the roster gives them, e.g. 06); empty: every grade'),
    subjects: targetList('subjects').describe('Class subjects (case-insensitive); empty: every subject'),
  })
  .meta({ id: 'PublishCommonAssessment' });

export const assignCommonAssessmentBody = z
  .object({ classId: z.string({ error: 'classId is required' }) })
  .meta({ id: 'AssignCommonAssessment' });

const standardCopy = z.object({
  identifier: z.string(),
  code: z.string(),
  uri: z.string(),
  frameworkId: z.uuid().nullable(),
});

export const commonAssessmentSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    topic: z.string(),
    standard: z.string(),
    status: z.enum(['draft', 'published']).describe('published: its questions are locked'),
    targets: z.object({ schools: z.array(z.string()), grades: z.array(z.string()), subjects: z.array(z.string()) }),
    publishedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    questionCount: z.number().int(),
    classIds: z.array(z.uuid()).describe("A teacher's classes it reaches (empty in the admin's list)"),
  })
  .meta({ id: 'CommonAssessment' });

export const commonQuestionSchema = z
  .object({
    id: z.uuid(),
    position: z.number().int(),
    questionText: z.string(),
    questionType: z.string(),
    options: z.array(z.string()),
    correctAnswer: z.string(),
    acceptedAnswers: z.array(z.string()),
    points: z.number(),
    standards: z.array(standardCopy),
  })
  .meta({ id: 'CommonAssessmentQuestion' });

export const commonAssessmentDetailSchema = commonAssessmentSchema
  .extend({ questions: z.array(commonQuestionSchema) })
  .meta({ id: 'CommonAssessmentDetail' });

export const publishTargetsSchema = z
  .object({
    schools: z
      .array(z.object({ id: z.string().describe('The roster org sourcedId'), name: z.string() }))
      .describe("The schools of the district's live classes"),
    grades: z.array(z.string()),
    subjects: z.array(z.string()),
  })
  .meta({ id: 'CommonAssessmentTargets' });
