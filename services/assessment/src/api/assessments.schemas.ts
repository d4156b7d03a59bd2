// Request and response schemas of the assessment calls (spec §3, §5, §7); they drive validation
// and the OpenAPI document.
import { z } from 'zod';
import { MAX_POINTS, MAX_QUESTIONS, QUESTION_TYPES } from '../domain/questions.ts';

const LIMITS = { title: 200, description: 5_000, content: 20_000, topic: 20_000, answer: 5_000, question: 5_000 };

const requiredText = (message: string, max: number, label: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, `${label} must be at most ${max} characters`);
const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => v ?? '');

/** Non-numeric input becomes 1 (spec §5); absent means the default 10 (§9). */
const numberOfQuestions = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return 10;
    const n = typeof v === 'number' ? v : Number.parseInt(String(v), 10);
    return Number.isFinite(n) ? Math.trunc(n) : 1;
  },
  z.number().int().min(1, 'Must have at least 1 question').max(MAX_QUESTIONS, `Maximum ${MAX_QUESTIONS} questions`),
);

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * POST /api/assessments accepts both readings of spec §3: {title, description, standard, topic,
 * classId, questions: {type, count, instructions}} and {title, contentToAssess, questionType,
 * numberOfQuestions, description, classId}. Both become one shape here.
 */
export const createAssessmentBody = z
  .preprocess(
    (raw) => {
      const b = record(raw);
      const q = record(b.questions);
      const content = b.contentToAssess ?? q.instructions ?? b.standard ?? b.topic;
      return {
        title: b.title,
        description: b.description,
        classId: b.classId ?? b.class_id,
        contentToAssess: content,
        questionType: b.questionType ?? q.type,
        numberOfQuestions: b.numberOfQuestions ?? q.count,
        topic: b.topic,
        standard: b.standard,
      };
    },
    z.object({
      title: requiredText('Title is required', LIMITS.title, 'Title'),
      description: optionalText(LIMITS.description, 'Description'),
      classId: z.string({ error: 'No class selected' }).trim().min(1, 'No class selected'),
      contentToAssess: requiredText('Content to be assessed is required', LIMITS.content, 'Content to be assessed'),
      questionType: z.enum([...QUESTION_TYPES, 'mixed'], { error: 'Question type is required' }),
      numberOfQuestions,
      topic: optionalText(LIMITS.topic, 'Topic'),
      standard: optionalText(LIMITS.topic, 'Standard'),
    }),
  )
  .meta({
    id: 'CreateAssessment',
    description:
      'Either {title, description, standard, topic, classId, questions: {type, count, instructions}} or {title, contentToAssess, questionType, numberOfQuestions, description, classId}.',
  });
export type CreateAssessmentBody = z.infer<typeof createAssessmentBody>;

const toggleBody = z.object({ isActive: z.boolean({ error: 'isActive must be true or false' }) });
const detailsBody = z.object({
  title: requiredText('Title is required', LIMITS.title, 'Title'),
  description: optionalText(LIMITS.description, 'Description'),
  topic: requiredText('Topic is required', LIMITS.topic, 'Topic'),
  standard: optionalText(LIMITS.topic, 'Standard'),
  isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
});
export type UpdateAssessmentBody =
  z.infer<typeof toggleBody> | (z.infer<typeof detailsBody> & { isActive?: boolean | undefined });

/** PUT /api/assessments/:id: the details form (§5 edit texts), or {isActive} alone for the toggle. */
export const updateAssessmentBody = z
  .unknown()
  .transform((raw, ctx): UpdateAssessmentBody => {
    const body = record(raw);
    const toggleOnly = Object.keys(body).every((k) => k === 'isActive');
    const parsed = (toggleOnly ? toggleBody : detailsBody).safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  })
  .meta({
    id: 'UpdateAssessment',
    description: '{title, description, standard, topic} (title and topic required) or {isActive}',
  });

/** PUT /api/questions/:id and POST /api/assessments/:id/questions. */
export const questionBody = z
  .object({
    questionText: requiredText('Question text is required', LIMITS.question, 'Question text'),
    questionType: z.enum(QUESTION_TYPES, {
      error: 'Question type must be multiple_choice, short_answer or true_false',
    }),
    options: z.unknown().optional().meta({ description: 'A list of strings, a JSON-encoded list or delimited text' }),
    correctAnswer: requiredText('Correct answer is required', LIMITS.answer, 'Correct answer'),
    points: z.preprocess(
      (v) => (v === undefined || v === null || v === '' ? 1 : typeof v === 'string' ? Number(v) : v),
      z
        .number({ error: 'Points must be a number' })
        .gt(0, 'Points must be more than 0')
        .max(MAX_POINTS, `Points must be at most ${MAX_POINTS}`),
    ),
  })
  .meta({ id: 'QuestionInput' });

export const responseBody = z
  .object({
    assessmentId: z.string({ error: 'assessmentId is required' }),
    questionId: z.string({ error: 'questionId is required' }),
    answer: z
      .string({ error: 'Answer must be text' })
      .max(LIMITS.answer, `Answer must be at most ${LIMITS.answer} characters`),
    clientSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .meta({ id: 'SaveResponse' });

/** Anything the client sends besides the assessment id (score, level…) is ignored. */
export const submitBody = z
  .object({ assessmentId: z.string({ error: 'assessmentId is required' }) })
  .meta({ id: 'SubmitResult' });

export const idParams = z.object({ id: z.string().meta({ format: 'uuid' }) });

const level = z.enum(['below', 'at', 'above']);
const generation = {
  generationStatus: z.enum(['generating', 'ready', 'failed']),
  generationProvider: z.string().nullable().describe('openai | offline, once questions were generated'),
  generationError: z.string().nullable(),
};

export const teacherAssessmentSchema = z
  .object({
    id: z.uuid(),
    classId: z.uuid(),
    title: z.string(),
    description: z.string(),
    topic: z.string(),
    standard: z.string(),
    dueDate: z.iso.datetime().nullable(),
    isActive: z.boolean(),
    isAssigned: z.boolean(),
    assignedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    className: z.string(),
    subject: z.string(),
    questionCount: z.number().int(),
    responseCount: z.number().int().describe('Distinct students who submitted'),
    assignedCount: z.number().int().describe('Students the assessment is assigned to (0 until assigned)'),
    contentToAssess: z.string(),
    questionType: z.string(),
    numberOfQuestions: z.number().int(),
    ...generation,
  })
  .meta({ id: 'Assessment' });

export const studentAssessmentSchema = z
  .object({
    id: z.uuid(),
    classId: z.uuid(),
    title: z.string(),
    description: z.string(),
    dueDate: z.iso.datetime().nullable(),
    isActive: z.boolean(),
    createdAt: z.iso.datetime(),
    className: z.string(),
    subject: z.string(),
    questionCount: z.number().int(),
    submitted: z.boolean(),
    resultId: z.uuid().nullable(),
  })
  .meta({ id: 'StudentAssessment', description: 'What a student sees: no source text, topic or answers' });

export const assessmentSchema = z.union([teacherAssessmentSchema, studentAssessmentSchema]);

export const availableAssessmentSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    className: z.string(),
    subject: z.string(),
    questionCount: z.number().int(),
    classId: z.uuid(),
  })
  .meta({ id: 'AvailableAssessment' });

export const questionSchema = z
  .object({
    id: z.uuid(),
    assessmentId: z.uuid(),
    questionText: z.string(),
    questionType: z.enum(QUESTION_TYPES),
    options: z.array(z.string()),
    correctAnswer: z.string().optional().describe('Teachers always; a student only once their result exists'),
    points: z.string().describe('Numeric string'),
    position: z.number().int(),
  })
  .meta({ id: 'Question' });

export const responseSchema = z
  .object({
    id: z.uuid(),
    assessmentId: z.uuid(),
    questionId: z.uuid(),
    studentId: z.uuid(),
    answer: z.string(),
    clientSeq: z.number().int().nullable(),
    updatedAt: z.iso.datetime(),
    student: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() }),
  })
  .meta({ id: 'Response' });

export const assignResultSchema = z.object({ message: z.string(), assignedCount: z.number().int() });

export const resultSchema = z
  .object({
    id: z.uuid(),
    assessmentId: z.uuid(),
    studentId: z.uuid(),
    classId: z.uuid(),
    totalPoints: z.string(),
    earnedPoints: z.string(),
    percentage: z.string(),
    score: z.number(),
    performanceLevel: level,
    isSubmitted: z.literal(true),
    submittedAt: z.iso.datetime(),
    correctAnswers: z.number().int(),
    incorrectAnswers: z.number().int(),
    totalQuestions: z.number().int(),
    className: z.string(),
    assessment: z.object({ title: z.string(), description: z.string() }),
    student: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() }),
  })
  .meta({ id: 'Result' });

export const resultQuestionSchema = z
  .object({
    questionId: z.uuid(),
    position: z.number().int(),
    questionText: z.string(),
    questionType: z.enum(QUESTION_TYPES),
    options: z.array(z.string()),
    correctAnswer: z.string(),
    points: z.string().describe('Numeric string'),
    answer: z.string().nullable().describe("The student's stored answer; null when the question was never answered"),
    correct: z.boolean(),
  })
  .meta({ id: 'ResultQuestion', description: 'One question of a result, as it was scored at submission' });

export const resultDetailSchema = resultSchema
  .extend({
    questions: z
      .array(resultQuestionSchema)
      .describe('In question order, with the answer key: only for the student who submitted and the class teacher'),
  })
  .meta({ id: 'ResultDetail' });
