// Request and response schemas of the assessment calls (the entities' fields, the validation
// messages the forms show, the routes); they drive validation and the OpenAPI document.
import {
  documentedAs,
  inputJsonSchema,
  NOT_BLANK,
  optionalText as textOptional,
  requiredText as textRequired,
  SPACE,
  type JsonSchema,
} from '@checkpoint/service-kit';
import { z } from 'zod';
import {
  MAX_ACCEPTED_ANSWER_LENGTH,
  MAX_ACCEPTED_ANSWERS,
  MAX_POINTS,
  MAX_QUESTIONS,
  QUESTION_TYPES,
} from '../domain/questions.ts';
import { RAISED_BY } from '../domain/scoring.ts';
import { COUNTED_ATTEMPTS, TEXT_LIMITS } from '../domain/assessment.ts';
import { isTheLesson, LABEL_MAX } from '../domain/labels.ts';
import { MAX_STANDARD_IDENTIFIER, MAX_STANDARDS } from '../domain/standards.ts';

// Topic and standard are short labels (a badge, a card line); the lesson goes in the content.
const LIMITS = { ...TEXT_LIMITS, topic: LABEL_MAX };

const requiredText = (message: string, max: number, label: string) =>
  textRequired(max, { required: message, tooLong: `${label} must be at most ${max} characters` });
const optionalText = (max: number, label: string) =>
  textOptional(max, { notText: `${label} must be text`, tooLong: `${label} must be at most ${max} characters` });

/** Non-numeric text becomes 1; absent means the default of 10 questions; a list or an object is refused. */
const numberOfQuestions = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return 10;
    if (typeof v === 'string') {
      const n = Number.parseInt(v, 10);
      return Number.isNaN(n) ? 1 : n;
    }
    return typeof v === 'number' ? Math.trunc(v) : v;
  },
  z
    .number({ error: 'Number of questions must be a number' })
    .int()
    .min(1, 'Must have at least 1 question')
    .max(MAX_QUESTIONS, `Maximum ${MAX_QUESTIONS} questions`),
);
/**
 * numberOfQuestions as the document states it: a number from 1 to below MAX_QUESTIONS + 1 (it is
 * truncated), null, or a text whose parseInt is not out of range: not 0 or less, not above 20.
 */
const OUT_OF_RANGE = `^[${SPACE}]*(?:-0*[1-9]|[+-]?0+(?:[^0-9]|$)|\\+?0*(?:2[1-9]|[3-9][0-9]|[1-9][0-9]{2,}))`;
const numberOfQuestionsDoc: JsonSchema = {
  anyOf: [
    { type: 'number', minimum: 1, exclusiveMaximum: MAX_QUESTIONS + 1 },
    { type: 'string', not: { pattern: OUT_OF_RANGE } },
    { type: 'null' },
  ],
};

/**
 * A due date: an ISO 8601 date and time with Z or an offset, in the years 2000 to 2099, on a day
 * the month has (the pattern says all of it, so the document states exactly what is taken).
 */
const DAY =
  '(?:20[0-9]{2}-(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|20[0-9]{2}-(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)' +
  '|20[0-9]{2}-02-(?:0[1-9]|1[0-9]|2[0-8])|20(?:0[48]|[2468][048]|[13579][26])-02-29)';
const TIME =
  'T(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,9})?)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
const DUE_DATE = new RegExp(`^${DAY}${TIME}$`);
/** A date and time field (the due date, the window's ends): Date, null to clear, undefined to keep. */
const dateTime = (label: string, description: string) => {
  const message = `${label} must be a date and time such as 2026-12-01T15:00:00Z`;
  return z
    .string({ error: message })
    .regex(DUE_DATE, message)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v === null ? null : new Date(v)))
    .meta({ description: `${description}: ISO 8601 date and time (years 2000–2099), or null for none` });
};
const dueDate = dateTime('Due date', 'Shown to students');

/** `standards`: CASE item identifiers chosen from the catalogue, as the document states them. */
const STANDARDS_DOC: JsonSchema = {
  anyOf: [
    {
      type: 'array',
      maxItems: MAX_STANDARDS,
      uniqueItems: true,
      items: { type: 'string', maxLength: MAX_STANDARD_IDENTIFIER, pattern: NOT_BLANK.source },
    },
    { type: 'null' },
  ],
  description: `CASE item identifiers (CFItem.identifier) from GET /api/standards/search, at most ${MAX_STANDARDS}, none twice; each must be a standard of a framework your district (or the platform) imported, not withdrawn, else 400 naming standards[i]`,
};

/**
 * A list of identifiers (null or absent: none given). Its entries are checked by
 * checkStandards, on the object, so that each refusal names `standards[i]`.
 */
const standardsField = z
  .array(z.unknown(), { error: 'Standards must be a list of standard identifiers' })
  .nullish()
  .transform((v) => (v ? (v as string[]) : undefined))
  .meta(documentedAs(STANDARDS_DOC));

/** At most MAX_STANDARDS non-blank identifiers, none twice (trimmed in place). */
function checkStandards(list: unknown[] | undefined, ctx: z.RefinementCtx) {
  if (!list) return;
  if (list.length > MAX_STANDARDS) {
    ctx.addIssue({ code: 'custom', path: ['standards'], message: `At most ${MAX_STANDARDS} standards` });
    return;
  }
  const seen = new Set<string>();
  list.forEach((v, i) => {
    const path = [`standards[${i}]`];
    if (typeof v !== 'string' || !NOT_BLANK.test(v))
      return ctx.addIssue({ code: 'custom', path, message: 'Each standard must be a standard identifier' });
    if (v.length > MAX_STANDARD_IDENTIFIER)
      return ctx.addIssue({
        code: 'custom',
        path,
        message: `A standard identifier is at most ${MAX_STANDARD_IDENTIFIER} characters`,
      });
    const id = v.trim();
    if (seen.has(id)) return ctx.addIssue({ code: 'custom', path, message: 'Standard chosen twice' });
    seen.add(id);
    list[i] = id;
  });
}

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * POST /api/assessments accepts two shapes of payload: {title, description, standard, topic,
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
        dueDate: b.dueDate,
        standards: b.standards,
      };
    },
    z
      .object({
        title: requiredText('Title is required', LIMITS.title, 'Title'),
        description: optionalText(LIMITS.description, 'Description'),
        classId: z.string({ error: 'No class selected' }).regex(NOT_BLANK, 'No class selected').trim(),
        contentToAssess: requiredText('Content to be assessed is required', LIMITS.content, 'Content to be assessed'),
        questionType: z.enum([...QUESTION_TYPES, 'mixed'], { error: 'Question type is required' }),
        numberOfQuestions,
        // The first reading sends the lesson itself as topic and standard: taken up to the content's
        // length here, and refused below unless it is that lesson (the use case derives the labels).
        topic: optionalText(LIMITS.content, 'Topic'),
        standard: optionalText(LIMITS.content, 'Standard'),
        dueDate,
        standards: standardsField,
      })
      .superRefine((b, ctx) => {
        checkStandards(b.standards, ctx);
        for (const [field, label] of [
          ['topic', 'Topic'],
          ['standard', 'Standard'],
        ] as const) {
          if (b[field].length > LIMITS.topic && !isTheLesson(b[field], b.contentToAssess))
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: `${label} must be at most ${LIMITS.topic} characters`,
            });
        }
      }),
  )
  .meta({
    id: 'CreateAssessment',
    description:
      "Either {title, description, standard, topic, classId, questions: {type, count, instructions}} or {title, contentToAssess, questionType, numberOfQuestions, description, classId}. Topic and standard are labels of at most 120 characters, or the lesson itself (the same text as the content to assess): then the topic is derived from the lesson (its heading, else the title) and the standard is left empty. Either shape may add standards (CASE item identifiers from the catalogue): the questions are generated for them, and an empty standard label becomes their codes, an empty topic the first one's statement.",
    ...documentedAs(createAssessmentDoc()),
  });
export type CreateAssessmentBody = z.infer<typeof createAssessmentBody>;

/**
 * What the preprocess above takes, as JSON Schema: each field is the first of its sources that is
 * neither absent nor null (its `??` chain), and that one must be valid.
 */
function createAssessmentDoc(): JsonSchema {
  type Source = string | ['questions', string];
  const nullish = (src: Source): JsonSchema =>
    typeof src === 'string'
      ? { properties: { [src]: { type: 'null' } } }
      : {
          anyOf: [
            { properties: { questions: { not: { type: 'object' } } } },
            { properties: { questions: { properties: { [src[1]]: { type: 'null' } } } } },
          ],
        };
  const given = (src: Source, schema: JsonSchema): JsonSchema =>
    typeof src === 'string'
      ? { required: [src], properties: { [src]: schema } }
      : {
          required: ['questions'],
          properties: { questions: { type: 'object', required: [src[1]], properties: { [src[1]]: schema } } },
        };
  const firstOf = (sources: Source[], schema: JsonSchema, orNone = false): JsonSchema => ({
    anyOf: [
      ...sources.map((src, i) => ({ allOf: [...sources.slice(0, i).map(nullish), given(src, schema)] })),
      ...(orNone ? [{ allOf: sources.map(nullish) }] : []),
    ],
  });
  const text = (schema: z.ZodType) => inputJsonSchema(schema);
  return {
    type: 'object',
    properties: {
      title: text(requiredText('Title is required', LIMITS.title, 'Title')),
      description: text(optionalText(LIMITS.description, 'Description')),
      topic: text(optionalText(LIMITS.content, 'Topic')),
      standard: text(optionalText(LIMITS.content, 'Standard')),
      dueDate: inputJsonSchema(dueDate),
      standards: STANDARDS_DOC,
    },
    required: ['title'],
    allOf: [
      firstOf(['classId', 'class_id'], { type: 'string', pattern: NOT_BLANK.source }),
      firstOf(
        ['contentToAssess', ['questions', 'instructions'], 'standard', 'topic'],
        text(requiredText('', LIMITS.content, '')),
      ),
      firstOf(['questionType', ['questions', 'type']], { type: 'string', enum: [...QUESTION_TYPES, 'mixed'] }),
      firstOf(['numberOfQuestions', ['questions', 'count']], numberOfQuestionsDoc, true),
    ],
  };
}

const flag = (name: string) => z.boolean({ error: `${name} must be true or false` });
/** How students are given it; each left out keeps the stored one. */
const deliveryFields = {
  isActive: flag('isActive').optional(),
  shuffleQuestions: flag('shuffleQuestions')
    .optional()
    .describe('Each student sees the questions in an order of their own, the same on every reload'),
  shuffleOptions: flag('shuffleOptions')
    .optional()
    .describe("Each student sees each multiple-choice question's options in an order of their own"),
  timeLimitSeconds: z
    .number({ error: 'Time limit must be a whole number of seconds from 60 to 86400, or null' })
    .int('Time limit must be a whole number of seconds from 60 to 86400, or null')
    .min(60, 'Time limit must be at least 60 seconds')
    .max(86_400, 'Time limit must be at most 86400 seconds (24 hours)')
    .nullable()
    .optional()
    .describe(
      "Each student's attempt takes answers for this long from their first read of the questions (null: no time limit)",
    ),
  maxAttempts: z
    .number({ error: 'Attempts allowed must be a whole number from 1 to 10' })
    .int('Attempts allowed must be a whole number from 1 to 10')
    .min(1, 'Attempts allowed must be at least 1')
    .max(10, 'Attempts allowed must be at most 10')
    .optional()
    .describe('How many attempts each student may have (1: no retake); a teacher grants each retake'),
  countedAttempt: z
    .enum(COUNTED_ATTEMPTS, { error: "countedAttempt must be 'latest' or 'best'" })
    .optional()
    .describe("Which of a student's attempts counts: the latest submitted, or the best by percentage"),
  reviewShortAnswers: flag('reviewShortAnswers')
    .optional()
    .describe(
      "A short answer matching neither the key nor an accepted answer is not marked at submission but waits for the teacher's review (0 points until then)",
    ),
  opensAt: dateTime('Opens at', 'Students may open and answer it from this time'),
  closesAt: dateTime(
    'Closes at',
    'No answer is saved after this time (later than opensAt); each attempt with saved answers is then submitted',
  ),
};
const settingsBody = z.strictObject(deliveryFields);
const toggleBody = z.object({ isActive: flag('isActive') });
const detailsBody = z.object({
  title: requiredText('Title is required', LIMITS.title, 'Title'),
  description: optionalText(LIMITS.description, 'Description'),
  topic: requiredText('Topic is required', LIMITS.topic, 'Topic'),
  standard: optionalText(LIMITS.topic, 'Standard'),
  dueDate,
  ...deliveryFields,
});
/** The date fields as the transform leaves them: undefined (left out: keep), null (clear) or a Date. */
type DatesLeftOut<T, K extends keyof T> = Omit<T, K> & { [P in K]?: Date | null | undefined };
export type UpdateAssessmentBody =
  | DatesLeftOut<z.infer<typeof settingsBody>, 'opensAt' | 'closesAt'>
  | DatesLeftOut<z.infer<typeof detailsBody>, 'opensAt' | 'closesAt' | 'dueDate'>;

/**
 * PUT /api/assessments/:id: the details form (with its own validation texts), or settings alone
 * ({isActive} for the toggle, the shuffles); an empty body is refused naming isActive.
 */
export const updateAssessmentBody = z
  .unknown()
  .transform((raw, ctx): UpdateAssessmentBody => {
    const body = record(raw);
    const keys = Object.keys(body);
    const settingsOnly = keys.length > 0 && keys.every((k) => Object.hasOwn(deliveryFields, k));
    const parsed = (keys.length === 0 ? toggleBody : settingsOnly ? settingsBody : detailsBody).safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  })
  .meta({
    id: 'UpdateAssessment',
    description:
      '{title, description, standard, topic, dueDate} (title and topic required; dueDate left out keeps the stored one, null clears it), with or without the settings; or settings alone: {isActive, shuffleQuestions, shuffleOptions, reviewShortAnswers, opensAt, closesAt, timeLimitSeconds, maxAttempts, countedAttempt}, each left out keeping the stored one',
    ...documentedAs({ anyOf: [{ ...inputJsonSchema(settingsBody), minProperties: 1 }, inputJsonSchema(detailsBody)] }),
  });

const MAX_OPTIONS = 20;
const OPTIONS_TEXT = MAX_OPTIONS * LIMITS.answer;

/**
 * A flat list of option texts (numbers and booleans are taken as text, nulls dropped) or one
 * text, JSON-encoded or delimited. SECURITY: anything nested is refused here; it used to reach
 * String(), which an object with its own toString key, or deep nesting, turned into a 500.
 */
const options = z
  .union(
    [
      z
        .array(
          z.union([
            z.string().max(LIMITS.answer, `Each option must be at most ${LIMITS.answer} characters`),
            z.number(),
            z.boolean(),
            z.null(),
          ]),
        )
        .max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options`),
      z.string().max(OPTIONS_TEXT, `Options must be at most ${OPTIONS_TEXT} characters`),
    ],
    {
      error: (issue) =>
        !Array.isArray(issue.input)
          ? 'Options must be a list of texts or one text'
          : issue.input.length > MAX_OPTIONS
            ? `At most ${MAX_OPTIONS} options`
            : 'Each option must be a text, not a list or an object',
    },
  )
  .nullish()
  .meta({ description: 'A list of strings, a JSON-encoded list or delimited text' });

/**
 * A short answer's alternatives besides its key (ignored for the other types); left out (or null)
 * they are none on POST and the stored ones on PUT.
 */
const acceptedAnswers = z
  .array(
    z
      .string({ error: 'Each accepted answer must be text' })
      .max(MAX_ACCEPTED_ANSWER_LENGTH, `Each accepted answer must be at most ${MAX_ACCEPTED_ANSWER_LENGTH} characters`),
    { error: 'Accepted answers must be a list of texts' },
  )
  .max(MAX_ACCEPTED_ANSWERS, `At most ${MAX_ACCEPTED_ANSWERS} accepted answers`)
  .nullish()
  .transform((v) => v ?? undefined);

/** Points as text (the web sends them so): a decimal number between blanks, no sign or exponent. */
const POINTS_TEXT = new RegExp(`^[${SPACE}]*(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)[${SPACE}]*$`);
/** The same texts whose value is from 0.01 to MAX_POINTS (100), as the document states them. */
const POINTS_TEXT_IN_RANGE = `^[${SPACE}]*(?:0*100(?:\\.0*)?|0*[1-9][0-9]?(?:\\.[0-9]*)?|0*\\.(?:0[1-9]|[1-9])[0-9]*)[${SPACE}]*$`;

/**
 * Absent, null or '' (the spec's payload has no points): undefined, decided by the use case. A
 * text is read as a decimal number; any other text is not a number.
 */
const points = z
  .preprocess(
    (v) =>
      v === undefined || v === null || v === ''
        ? undefined
        : typeof v === 'string' && POINTS_TEXT.test(v)
          ? Number(v)
          : v,
    z
      .number({ error: 'Points must be a number' })
      // Stored to 0.01 (see checkQuestion), so less would be stored as 0: refused here, where the document says it.
      .min(0.01, 'Points must be more than 0')
      .max(MAX_POINTS, `Points must be at most ${MAX_POINTS}`)
      .optional(),
  )
  .meta(
    documentedAs({
      anyOf: [
        { type: 'number', minimum: 0.01, maximum: MAX_POINTS },
        { type: 'string', pattern: POINTS_TEXT_IN_RANGE },
        { type: 'string', maxLength: 0 },
        { type: 'null' },
      ],
    }),
  );

/**
 * A true/false answer as the question rules take it (normalizeTrueFalse): true, t, false or f in
 * any case, between blanks.
 */
const TRUE_FALSE_ANSWER = `^[${SPACE}]*(?:[Tt](?:[Rr][Uu][Ee])?|[Ff](?:[Aa][Ll][Ss][Ee])?)[${SPACE}]*$`;
/** An entry that counts as an option: a number, a boolean or a text that is not blank. */
const COUNTED_OPTION = {
  anyOf: [{ type: 'string', pattern: NOT_BLANK.source }, { type: 'number' }, { type: 'boolean' }],
};

/**
 * What each question type takes besides the common fields (the rules of domain/questions.ts, as
 * far as JSON Schema can say them): true/false needs True or False as its answer; multiple choice
 * needs a list of exactly 4 options, none blank (MULTIPLE_CHOICE_LIST), or a text to split, and on
 * POST options at all. The
 * rest is in the description: the 4 options must differ and the answer must be one of them, which
 * no schema can state.
 */
function questionTypeRules(edit: boolean): JsonSchema {
  const listOrText: JsonSchema[] = [
    { type: 'array', minItems: 4, maxItems: 4, items: COUNTED_OPTION },
    { type: 'string' },
  ];
  return {
    oneOf: [
      {
        title: 'multiple_choice',
        description:
          'Four different options (ignoring case and surrounding blanks) and a correct answer that is one of them' +
          (edit ? '; options left out (or null) are the stored ones.' : '.'),
        properties: {
          questionType: { const: 'multiple_choice' },
          options: { anyOf: edit ? [...listOrText, { type: 'null' }] : listOrText },
        },
        ...(edit ? {} : { required: ['options'] }),
      },
      {
        title: 'short_answer',
        description: 'Options are ignored.',
        properties: { questionType: { const: 'short_answer' } },
      },
      {
        title: 'true_false',
        description: 'Options are ignored (they are True and False); the answer is true, t, false or f in any case.',
        properties: {
          questionType: { const: 'true_false' },
          correctAnswer: { type: 'string', pattern: TRUE_FALSE_ANSWER },
        },
      },
    ],
  };
}

/** A multiple choice list as the document states it: 4 entries, each a number, a boolean or a text that is not blank. */
const MULTIPLE_CHOICE_LIST = (list: unknown[]) =>
  list.length === 4 &&
  list.every((o) => typeof o === 'number' || typeof o === 'boolean' || (typeof o === 'string' && NOT_BLANK.test(o)));

const withTypeRules = (edit: boolean) => ({
  override: ({ jsonSchema }: { jsonSchema: JsonSchema }) => {
    Object.assign(jsonSchema, questionTypeRules(edit));
  },
});

/**
 * PUT /api/questions/:id and POST /api/assessments/:id/questions. An absent `options` or `points`
 * keeps the stored value on PUT (the spec's edit payload has no points), and is none / 1 on POST.
 * The rules of each question type are checked by the domain (domain/questions.ts, with its
 * messages); the document adds them to what it generates (questionTypeRules).
 */
const questionFields = z
  .object({
    questionText: requiredText('Question text is required', LIMITS.question, 'Question text'),
    questionType: z.enum(QUESTION_TYPES, {
      error: 'Question type must be multiple_choice, short_answer or true_false',
    }),
    options,
    correctAnswer: requiredText('Correct answer is required', LIMITS.answer, 'Correct answer'),
    acceptedAnswers,
    points,
    standards: standardsField,
  })
  .superRefine((q, ctx) => {
    checkStandards(q.standards, ctx);
    // MULTIPLE_CHOICE_LIST: the four inputs A to D of the question form, none left blank; a list with blank or
    // null entries besides them is not four options either.
    if (q.questionType === 'multiple_choice' && Array.isArray(q.options) && !MULTIPLE_CHOICE_LIST(q.options))
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Multiple choice questions need 4 options (A to D)' });
  });
export const questionBody = questionFields.meta({ id: 'QuestionInput', ...withTypeRules(true) });
export const newQuestionBody = questionFields.meta({ id: 'NewQuestionInput', ...withTypeRules(false) });

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

export const reorderBody = z
  .object({
    questionIds: z
      .array(z.string({ error: 'questionIds must be a list of question ids' }), {
        error: 'questionIds must be a list of question ids',
      })
      .max(MAX_QUESTIONS, `questionIds lists at most ${MAX_QUESTIONS} questions`),
  })
  .meta({
    id: 'QuestionOrder',
    description: 'Every question id of the assessment exactly once, in the new order (else 400 naming questionIds)',
  });

export const idParams = z.object({ id: z.string().meta({ format: 'uuid' }) });

const level = z.enum(['below', 'at', 'above']);
const generation = {
  generationStatus: z.enum(['generating', 'ready', 'failed']),
  generationProvider: z.string().nullable().describe('openai | offline, once questions were generated'),
  generationError: z.string().nullable(),
};

const windowFields = {
  opensAt: z.iso.datetime().nullable().describe('Students may open and answer it from this time (null: no bound)'),
  closesAt: z.iso
    .datetime()
    .nullable()
    .describe('No answer is saved after this time; attempts with saved answers are then submitted (null: no bound)'),
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
    status: z
      .enum(['draft', 'assigned', 'closed'])
      .describe('draft until assigned; assigned while active; closed when deactivated after being assigned'),
    assignedTo: z
      .array(
        z.object({
          classId: z.uuid(),
          className: z.string(),
          wholeClass: z.boolean().describe('Every member of the class, later joiners too'),
          studentIds: z.array(z.uuid()).describe('The chosen students when not the whole class (else empty)'),
        }),
      )
      .describe('The classes it is assigned to, its own class first (empty for a draft)'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    commonAssessmentId: z
      .uuid()
      .nullable()
      .describe(
        "The district's common assessment this is the class's copy of (its questions locked); null: the teacher's own",
      ),
    ...windowFields,
    timeLimitSeconds: z
      .number()
      .int()
      .nullable()
      .describe('Each attempt takes answers for this long (null: no time limit)'),
    maxAttempts: z.number().int().min(1).max(10).describe('Attempts allowed per student (1: no retake)'),
    countedAttempt: z
      .enum(COUNTED_ATTEMPTS)
      .describe("Which of a student's attempts counts: the latest submitted, or the best by percentage"),
    shuffleQuestions: z.boolean().describe('Each student sees the questions in an order of their own'),
    shuffleOptions: z
      .boolean()
      .describe("Each student sees each multiple-choice question's options in an order of their own"),
    reviewShortAnswers: z
      .boolean()
      .describe("A short answer matching neither the key nor an accepted answer waits for the teacher's review"),
    className: z.string(),
    subject: z.string(),
    questionCount: z.number().int(),
    responseCount: z.number().int().describe('Distinct students who submitted'),
    assignedCount: z.number().int().describe('Students the assessment is assigned to (0 until assigned)'),
    contentToAssess: z.string(),
    questionType: z.string(),
    numberOfQuestions: z.number().int(),
    ...generation,
    standards: z
      .array(
        z.object({
          identifier: z.string(),
          code: z.string().describe('CFItem.humanCodingScheme'),
          uri: z.string(),
          statement: z.string(),
          frameworkId: z.uuid().nullable(),
        }),
      )
      .describe('The standards chosen at creation, in order (copies: they stay as chosen if the framework changes)'),
    canEdit: z
      .boolean()
      .describe(
        "The caller teaches the assessment's own class and may change, regenerate or delete it; false for a teacher of a class it is only assigned to (read only)",
      ),
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
    ...windowFields,
    timeLimitSeconds: z
      .number()
      .int()
      .nullable()
      .describe('Each attempt takes answers for this long (null: no time limit)'),
    secondsLeft: z
      .number()
      .int()
      .nullable()
      .describe(
        "Seconds this student's attempt still takes answers, counted by the server (null: no time limit, or not started)",
      ),
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
    acceptedAnswers: z
      .array(z.string())
      .optional()
      .describe('Short answer alternatives also scored as right; shown when correctAnswer is'),
    points: z.string().describe('Numeric string'),
    position: z.number().int(),
    standards: z
      .array(z.object({ identifier: z.string(), code: z.string(), uri: z.string() }))
      .optional()
      .describe("The standards the question is aligned to: every teacher's read; never to students"),
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

export const copyBody = z
  .object({
    classId: z.uuid('classId must be the id of one of your classes'),
    title: requiredText('Title is required', LIMITS.title, 'Title').optional().describe("Absent: the source's title"),
  })
  .meta({ id: 'AssessmentCopy' });

/** The most classes and chosen students one assign names. */
export const MAX_ASSIGN_CLASSES = 50;
export const MAX_ASSIGN_STUDENTS = 2000;

export const assignBody = z
  .object({
    classIds: z
      .array(z.uuid('Each class id must be a UUID'))
      .min(1, 'classIds names at least one class')
      .max(MAX_ASSIGN_CLASSES, `classIds names at most ${MAX_ASSIGN_CLASSES} classes`)
      .optional()
      .describe("The teacher's classes to give it to (absent: its own class); each not archived, none twice"),
    studentIds: z
      .array(z.uuid('Each student id must be a UUID'))
      .min(1, 'studentIds names at least one student')
      .max(MAX_ASSIGN_STUDENTS, `studentIds names at most ${MAX_ASSIGN_STUDENTS} students`)
      .optional()
      .describe(
        'Only these students of those classes (absent: every member, later joiners too); each a member of one of them, every class holding one',
      ),
  })
  .meta({
    id: 'AssignTarget',
    description:
      'No body: its own class, wholly (as before). Assigning only adds: a class given wholly stays so, chosen students join those chosen before',
  });

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
    performanceLevel: level.describe(
      "The result's level: the score's (below < 80, at from 80, above from 90), or at when support practice raised it",
    ),
    originalLevel: level.describe('The level the score gave at submission (equals performanceLevel unless raised)'),
    raisedBy: z.enum(RAISED_BY).nullable().describe("What raised the level since submission ('practice'), or null"),
    raisedAttempt: z
      .number()
      .int()
      .min(1)
      .nullable()
      .describe('Which practice attempt (1 = the first try) raised the level; null when not raised or not known'),
    isSubmitted: z.literal(true),
    submittedAt: z.iso.datetime(),
    attempt: z.number().int().min(1).describe('The attempt (1 = the first) this result closed'),
    maxAttempts: z.number().int().min(1).describe('The attempts the assessment allows each student'),
    counted: z.boolean().describe("Whether this attempt is the one that counts (the assessment's countedAttempt)"),
    countedAttempt: z.enum(COUNTED_ATTEMPTS).describe('Which attempt counts: the latest or the best'),
    correctAnswers: z.number().int(),
    incorrectAnswers: z.number().int(),
    totalQuestions: z.number().int(),
    feedback: z.string().nullable().describe("The teacher's written feedback on the whole result; null: none"),
    pendingReview: z
      .number()
      .int()
      .min(0)
      .describe('Answers waiting for the teacher to review them: 0 points until then (the score is provisional)'),
    regradedAt: z.iso.datetime().nullable().describe('When the teacher last changed a mark; null: never'),
    className: z.string(),
    assessment: z.object({ title: z.string(), description: z.string() }),
    student: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() }),
  })
  .meta({ id: 'Result' });

/** What a retake or reopening did: the student's attempt now open (its number). */
export const attemptChangeSchema = z
  .object({
    resultId: z.uuid().describe('The result acted on'),
    assessmentId: z.uuid(),
    studentId: z.uuid(),
    attempt: z.number().int().min(1).describe('The attempt the student now has open (from 1)'),
  })
  .meta({ id: 'AttemptChange' });

export const resultQuestionSchema = z
  .object({
    questionId: z.uuid(),
    position: z.number().int(),
    questionText: z.string(),
    questionType: z.enum(QUESTION_TYPES),
    options: z.array(z.string()),
    correctAnswer: z.string(),
    acceptedAnswers: z.array(z.string()).describe('Short answer alternatives also scored as right'),
    points: z.string().describe('Numeric string'),
    answer: z.string().nullable().describe("The student's stored answer; null when the question was never answered"),
    correct: z.boolean().describe('Earned its full points'),
    earnedPoints: z
      .string()
      .describe('Numeric string: the points the answer earned (the teacher may give part points)'),
    pending: z.boolean().describe("Waiting for the teacher's review: 0 points until then"),
    feedback: z.string().nullable().describe("The teacher's written feedback on this answer; null: none"),
    shownOptions: z
      .array(z.string())
      .nullable()
      .describe(
        'The options this student was shown (reduced answer choices: the key and fewer distractors); null when every option was shown',
      ),
  })
  .meta({ id: 'ResultQuestion', description: 'One question of a result, as it was scored at submission' });

export const resultDetailSchema = resultSchema
  .extend({
    questions: z
      .array(resultQuestionSchema)
      .describe('In question order, with the answer key: only for the student who submitted and the class teacher'),
  })
  .meta({ id: 'ResultDetail' });

/** The teacher's "Try as a student": the assessment as a student sees it, keys left out. */
export const studentPreviewSchema = z
  .object({
    assessment: z.object({
      id: z.uuid(),
      title: z.string(),
      description: z.string(),
      dueDate: z.iso.datetime().nullable(),
      questionCount: z.number().int(),
    }),
    questions: z.array(questionSchema).describe('As a student gets them before submitting: no correctAnswer'),
  })
  .meta({ id: 'StudentPreview' });

export const previewScoreBody = z
  .object({
    answers: z
      .array(
        z
          .object({
            questionId: z.uuid('Not a question id'),
            answer: z
              .string({ error: 'Answer must be text' })
              .max(LIMITS.answer, `Answer must be at most ${LIMITS.answer} characters`),
          })
          .strict(),
        { error: 'answers must be a list of answers' },
      )
      .max(MAX_QUESTIONS, `At most ${MAX_QUESTIONS} answers`),
  })
  .strict()
  .meta({ id: 'PreviewScoreRequest' });

/** A preview's score: what a student's result would say, stored nowhere (no id, no time). */
export const previewScoreSchema = z
  .object({
    assessmentId: z.uuid(),
    totalPoints: z.string(),
    earnedPoints: z.string(),
    percentage: z.string(),
    score: z.number(),
    performanceLevel: level,
    correctAnswers: z.number().int(),
    incorrectAnswers: z.number().int(),
    totalQuestions: z.number().int(),
    questions: z.array(resultQuestionSchema),
  })
  .meta({ id: 'PreviewScore' });
