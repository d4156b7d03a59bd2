// Request and response schemas of the item bank (/api/bank/items…, and
// /api/assessments/{id}/questions/from-bank): a search, an item to save or change, an item.
import { z } from 'zod';
import { BANK_PAGE_SIZE } from '../domain/bank.use-case.ts';
import { LABEL_MAX } from '../domain/labels.ts';
import { MAX_QUESTIONS, QUESTION_TYPES } from '../domain/questions.ts';
import { newQuestionBody, questionBody } from './assessments.schemas.ts';

export const VISIBILITIES = ['private', 'school', 'district'] as const;

const visibility = z
  .enum(VISIBILITIES, { error: 'Visibility must be private, school or district' })
  .describe(
    'private: only you; school: the teachers of your classes’ schools; district: every teacher of the district (individual accounts: private only)',
  );

const label = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    // Checked before trimming: the document's maxLength is the length sent.
    .max(max, `${name} must be at most ${max} characters`)
    .trim()
    .optional();

const labelFields = {
  subject: label('Subject', 100).describe('Saved from a question: its class’s subject unless given'),
  grade: label('Grade', 20).describe('e.g. 6, 06 or K; saved from a question: its class’s grade (when it has one)'),
  topic: label('Topic', LABEL_MAX).describe('Saved from a question: its assessment’s topic unless given'),
  standard: label('Standard', LABEL_MAX).describe(
    'A free-text standard label; saved from a question: its assessment’s',
  ),
};

const QUESTION_KEYS = [
  'questionText',
  'questionType',
  'options',
  'correctAnswer',
  'acceptedAnswers',
  'points',
  'standards',
] as const;

const questionPart = {
  questionText: z.string().optional().describe('A new question: as POST /api/assessments/{id}/questions'),
  questionType: z.enum(QUESTION_TYPES).optional(),
  options: z.unknown().optional().describe('A list of strings (multiple choice: 4)'),
  correctAnswer: z.string().optional(),
  acceptedAnswers: z.array(z.string()).optional(),
  points: z.unknown().optional().describe('0.01 to 100; default 1'),
  standards: z.array(z.string()).optional().describe('CASE item identifiers of the catalogue'),
};

/** Copies the issues of a nested parse onto the outer one (so that each names its field). */
function forward(issues: z.core.$ZodIssue[], ctx: z.RefinementCtx) {
  for (const i of issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
}

/**
 * POST /api/bank/items: `{ questionId, visibility }` saves one of the caller's questions; otherwise
 * the body is a question (as POST /api/assessments/{id}/questions takes) with its visibility.
 */
export const saveBankItemBody = z
  .object({
    questionId: z
      .string({ error: 'questionId must be a question id' })
      .optional()
      .describe('One of your questions; leave out to send a question instead'),
    visibility,
    ...labelFields,
    ...questionPart,
  })
  .transform((b, ctx) => {
    const labels = { subject: b.subject, grade: b.grade, topic: b.topic, standard: b.standard };
    const { questionId } = b;
    if (questionId !== undefined) return { kind: 'question' as const, questionId, visibility: b.visibility, labels };
    const parsed = newQuestionBody.safeParse(Object.fromEntries(QUESTION_KEYS.map((k) => [k, b[k]])));
    if (!parsed.success) {
      forward(parsed.error.issues, ctx);
      return z.NEVER;
    }
    return { kind: 'new' as const, question: parsed.data, visibility: b.visibility, labels };
  })
  .meta({ id: 'SaveBankItem' });

/**
 * PUT /api/bank/items/{id}: the question as PUT /api/questions/{id} takes it (options, accepted
 * answers, points and standards left out keep theirs), and optionally its visibility and labels.
 */
export const updateBankItemBody = z
  .object({
    visibility: visibility.optional(),
    ...labelFields,
    ...questionPart,
  })
  .transform((b, ctx) => {
    const parsed = questionBody.safeParse(Object.fromEntries(QUESTION_KEYS.map((k) => [k, b[k]])));
    if (!parsed.success) {
      forward(parsed.error.issues, ctx);
      return z.NEVER;
    }
    const { options, acceptedAnswers, points, standards, ...required } = parsed.data;
    return {
      ...required,
      ...(options == null ? {} : { options }),
      ...(acceptedAnswers === undefined ? {} : { acceptedAnswers }),
      ...(points === undefined ? {} : { points }),
      ...(standards === undefined ? {} : { standards }),
      visibility: b.visibility,
      labels: { subject: b.subject, grade: b.grade, topic: b.topic, standard: b.standard },
    };
  })
  .meta({ id: 'UpdateBankItem' });

export const fromBankBody = z
  .object({
    itemIds: z
      .array(z.uuid({ error: 'Each item id must be a bank item id' }), { error: 'itemIds must be a list of item ids' })
      .min(1, 'Choose at least one item')
      .max(MAX_QUESTIONS, `At most ${MAX_QUESTIONS} items at once`),
  })
  .meta({ id: 'AddFromBank', description: 'Bank items to copy, in order, to the end of the assessment' });

const filter = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .max(max, `${name} must be at most ${max} characters`)
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined));

export const bankSearchQuery = z.object({
  q: filter('q', 200).describe('Words of the question, its topic or standard label (web search syntax)'),
  type: z.enum(QUESTION_TYPES, { error: 'type must be multiple_choice, short_answer or true_false' }).optional(),
  standard: filter('standard', 255).describe('A standard’s identifier or code, or the free-text standard label'),
  subject: filter('subject', 100),
  grade: filter('grade', 20).describe('e.g. 6, 06 or K'),
  visibility: z.enum(VISIBILITIES, { error: 'visibility must be private, school or district' }).optional(),
  scope: z
    .enum(['all', 'mine'], { error: 'scope must be all or mine' })
    .default('all')
    .describe('mine: only the items you saved'),
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(500, 'page must be at most 500')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(BANK_PAGE_SIZE.max, `pageSize must be at most ${BANK_PAGE_SIZE.max}`)
    .default(BANK_PAGE_SIZE.default),
});

export const bankItemSchema = z
  .object({
    id: z.uuid(),
    questionText: z.string(),
    questionType: z.enum(QUESTION_TYPES),
    options: z.array(z.string()),
    correctAnswer: z.string(),
    acceptedAnswers: z.array(z.string()),
    points: z.number(),
    subject: z.string(),
    grade: z.string(),
    topic: z.string(),
    standard: z.string(),
    standards: z.array(z.object({ identifier: z.string(), code: z.string(), uri: z.string() })),
    visibility: z.enum(VISIBILITIES),
    author: z.object({ id: z.uuid(), name: z.string() }),
    mine: z.boolean().describe('You saved it'),
    canEdit: z.boolean().describe('You may change or delete it (its author; an admin for a shared item)'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BankItem' });

export const bankPageSchema = z
  .object({
    items: z.array(bankItemSchema),
    page: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean().describe('Another page follows'),
  })
  .meta({ id: 'BankPage' });
