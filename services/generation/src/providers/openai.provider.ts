// The `openai` provider: chat completions with structured outputs (json_schema), parsed and
// checked with zod and the item rules. HTTP failures: 429 rate limit and 5xx/connection errors are
// retried with exponential backoff (Retry-After honoured); insufficient_quota fails at once with
// the quota reason. Output that does not parse is asked for again; invalid items (and items that
// break a quality rule, item-quality.ts) are dropped and topped up with another call; a set that
// stays short is an error, never stored broken.
//
// Grounded generation (docs/adr/012-standards.md): when the teacher chose standards, the prompt
// gives each one's identifier, code and statement and asks for items written for them, each
// naming (in `standards`) the identifiers it addresses. That output is checked (zod, then against
// the request's standards): an item naming anything else, a code the model made up included, or
// none at all, is refused like any invalid item: never returned, asked for again.
import OpenAI from 'openai';
import { z } from 'zod';
import { GenerationError } from '../domain/errors.ts';
import { checkItem } from '../domain/item-quality.ts';
import {
  alignmentProblem,
  checkQuestions,
  QUESTION_TYPES,
  type CandidateQuestion,
  type GeneratedQuestion,
  type GenerationRequest,
  type RequestStandard,
} from '../domain/question.ts';
import { lessonName, statementOf, studyText, type PracticeQuestion, type PracticeSet } from '../domain/practice.ts';
import type { Provider } from './provider.ts';
import { redactForPrompt } from './provider.ts';

export interface OpenAiOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  timeoutMs: number;
  /** Retries of one call after a 429 or 5xx. */
  maxRetries: number;
  retryBaseMs: number;
  /** Calls per request when output is malformed or short. */
  maxOutputRounds?: number;
  sleep?: (ms: number) => Promise<void>;
}

const itemJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['questionText', 'questionType', 'options', 'correctAnswer'],
  properties: {
    questionText: { type: 'string' },
    questionType: { type: 'string', enum: [...QUESTION_TYPES] },
    options: { type: 'array', items: { type: 'string' } },
    correctAnswer: { type: 'string' },
  },
} as const;

const questionsFormat = {
  type: 'json_schema',
  json_schema: {
    name: 'assessment_questions',
    strict: true,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['questions'],
      properties: { questions: { type: 'array', items: itemJsonSchema } },
    },
  },
} as const;

/** The questions' format when standards were chosen: each item names the identifiers it addresses. */
const alignedQuestionsFormat = (standards: readonly RequestStandard[]) =>
  ({
    type: 'json_schema',
    json_schema: {
      name: 'aligned_assessment_questions',
      strict: true,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['questions'],
        properties: {
          questions: {
            type: 'array',
            items: {
              ...itemJsonSchema,
              required: [...itemJsonSchema.required, 'standards'],
              properties: {
                ...itemJsonSchema.properties,
                standards: { type: 'array', items: { type: 'string', enum: standards.map((s) => s.identifier) } },
              },
            },
          },
        },
      },
    },
  }) as const;

/** What an item says it addresses: a list of texts, else nothing usable. */
const itemStandards = z.array(z.string().max(300)).max(20);

/**
 * The chosen standards' identifiers an item names (each given as an identifier or as its code),
 * or undefined when it names anything else or the list is not a list of texts.
 */
function namedStandards(raw: unknown, standards: readonly RequestStandard[]): string[] | undefined {
  const parsed = itemStandards.safeParse(raw);
  if (!parsed.success) return undefined;
  const ids = parsed.data.map(
    (n) => standards.find((s) => s.identifier === n.trim() || s.code === n.trim())?.identifier ?? n,
  );
  const q = { standardIdentifiers: [...new Set(ids)] };
  return alignmentProblem(q, standards) === undefined ? q.standardIdentifiers : undefined;
}

const practiceFormat = {
  type: 'json_schema',
  json_schema: {
    name: 'practice_material',
    strict: true,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['reading', 'questions'],
      properties: { reading: { type: 'string' }, questions: { type: 'array', items: itemJsonSchema } },
    },
  },
} as const;

const questionsOutput = z.object({ questions: z.array(z.record(z.string(), z.unknown())) });
const practiceOutput = z.object({
  reading: z.string().trim().min(1),
  questions: z.array(z.record(z.string(), z.unknown())),
});

const ITEM_RULES = [
  'Rules for every item:',
  '- multiple_choice: exactly 4 different options; correctAnswer is exactly one of the options.',
  '- true_false: options are ["True", "False"]; correctAnswer is "True" or "False".',
  '- short_answer: options is []; correctAnswer is a short word or phrase found in the text.',
  '- Never repeat a question; every question must be answerable from the text alone.',
  '- Every question stands on its own: never start with a pronoun (it, they, this) that points to the lesson text.',
  '- Never put the correct answer anywhere in the question text.',
  '- multiple_choice: the wrong options are of the same kind as the answer (all names, all numbers, all singular nouns, ...).',
  '- true_false: questionText is one complete statement (with a verb), prefixed "True or False: ".',
].join('\n');

const SYSTEM =
  'You write formative assessment items for school teachers. Use only the lesson text you are given. Answer with JSON that matches the schema.';

type ChatFormat =
  typeof questionsFormat | ReturnType<typeof alignedQuestionsFormat> | typeof practiceFormat | undefined;

export function openAiProvider(options: OpenAiOptions): Provider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: options.timeoutMs,
    // Retries are ours: the SDK would also retry insufficient_quota.
    maxRetries: 0,
  });
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const rounds = options.maxOutputRounds ?? 3;

  /** One completion with bounded retries on rate limits and server errors. */
  async function complete(user: string, format: ChatFormat): Promise<string | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await client.chat.completions.create({
          model: options.model,
          temperature: 0.4,
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: user },
          ],
          ...(format ? { response_format: format as unknown as OpenAI.ResponseFormatJSONSchema } : {}),
        });
        const message = res.choices?.[0]?.message;
        if (!message || message.refusal) return undefined;
        return message.content ?? undefined;
      } catch (err) {
        const failure = classify(err);
        if (!failure.retryable || attempt >= options.maxRetries) throw failure;
        await sleep(backoff(err, attempt, options.retryBaseMs));
      }
    }
  }

  function parse<T>(schema: z.ZodType<T>, raw: string | undefined): T | undefined {
    if (!raw) return undefined;
    try {
      const parsed = schema.safeParse(JSON.parse(stripFences(raw)));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async function collect(
    request: GenerationRequest,
    prompt: (need: number, have: GeneratedQuestion[]) => string,
  ): Promise<GeneratedQuestion[]> {
    const have: GeneratedQuestion[] = [];
    const standards = request.standards ?? [];
    const format = standards.length ? alignedQuestionsFormat(standards) : questionsFormat;
    let refused = 0;
    for (let round = 0; round < rounds && have.length < request.count; round++) {
      const need = request.count - have.length;
      const out = parse(questionsOutput, await complete(prompt(need, have), format));
      if (!out) continue;
      // With standards chosen, an item that names another (or none) is refused before anything else.
      const aligned = out.questions.flatMap((item): { item: Record<string, unknown>; ids?: string[] }[] => {
        if (!standards.length) return [{ item }];
        const ids = namedStandards(item.standards, standards);
        if (!ids) refused++;
        return ids ? [{ item, ids }] : [];
      });
      const { valid, rejected } = checkQuestions(
        aligned.map((a) => a.item as CandidateQuestion),
        request.questionType,
        have,
      );
      const dropped = new Set(rejected.map((r) => r.index));
      const ids = aligned.filter((_, i) => !dropped.has(i)).map((a) => a.ids);
      const checked = valid.map((q, i) => (ids[i] ? { ...q, standardIdentifiers: ids[i] } : q));
      // Held to the quality rules of the offline generator: an item a teacher would reject
      // (answer in the stem, a fragment as true/false, mixed kinds of options) is asked for again.
      have.push(...checked.filter((q) => checkItem(q).length === 0).slice(0, need));
    }
    if (have.length < request.count)
      throw new GenerationError(
        'invalid_output',
        `model gave ${have.length} usable of ${request.count} questions` +
          (refused ? `; ${refused} refused for naming a standard that was not chosen` : ''),
      );
    return have;
  }

  const questionPrompt = (request: GenerationRequest) => (need: number, have: GeneratedQuestion[]) =>
    [
      `Write ${need} ${request.questionType === 'mixed' ? 'questions mixing multiple_choice, true_false and short_answer' : `${request.questionType} questions`} about the lesson text below.`,
      request.topic ? `Topic: ${redactForPrompt(request.topic, 200)}` : '',
      request.standards?.length ? standardsSection(request.standards) : '',
      ITEM_RULES,
      have.length ? `Do not repeat these questions:\n${have.map((q) => `- ${q.questionText}`).join('\n')}` : '',
      `Lesson text:\n"""\n${redactForPrompt(request.content)}\n"""`,
    ]
      .filter(Boolean)
      .join('\n\n');

  async function practice(user: string, exclude: string[], prefix: string): Promise<PracticeSet> {
    for (let round = 0; round < rounds; round++) {
      const out = parse(practiceOutput, await complete(user, practiceFormat));
      if (!out) continue;
      const { valid } = checkQuestions(
        out.questions as CandidateQuestion[],
        'mixed',
        exclude.map((text) => ({ questionText: text }) as GeneratedQuestion),
      );
      const good = valid.filter((q) => checkItem(q).length === 0);
      if (good.length >= 3) {
        const questions: PracticeQuestion[] = good.slice(0, 8).map((q, i) => ({
          id: `${prefix}${i + (prefix ? 1 : 0)}`,
          question: q.questionText,
          type: q.questionType,
          options: q.options,
          correctAnswer: q.correctAnswer,
        }));
        return { reading: out.reading.trim(), questions };
      }
    }
    throw new GenerationError('invalid_output', 'model gave no usable practice material');
  }

  return {
    name: 'openai',
    generateQuestions: (request) => collect(request, questionPrompt(request)),

    writePractice: (lesson, type) =>
      practice(
        [
          type === 'support'
            ? `Write support practice for students below standard on "${redactForPrompt(lessonName(lesson), 200)}": a short, simple reading (150-300 words) that re-teaches the key ideas, then 5 easier practice questions.`
            : `Write enrichment practice for students at or above standard on "${redactForPrompt(lessonName(lesson), 200)}": a short reading (150-300 words) that extends the ideas, then 5 challenging practice questions.`,
          'Do not reuse the assessment questions listed below.',
          ITEM_RULES,
          `Assessment questions:\n${lesson.questions.map((q) => `- ${q.text}`).join('\n') || '- (none)'}`,
          `Lesson text:\n"""\n${redactForPrompt(studyText(lesson))}\n"""`,
        ].join('\n\n'),
        lesson.questions.map((q) => q.text),
        type === 'support' ? 's' : 'e',
      ),

    writeResultPractice: (lesson, outcomes, type, retry) => {
      const wrong = lesson.questions.filter((q) => !outcomes.some((o) => o.questionId === q.id && o.correct));
      return practice(
        [
          `A student ${type === 'support' ? 'is below standard' : 'is at or above standard'} on "${redactForPrompt(lessonName(lesson), 200)}" and missed the items below. Write a short reading (100-250 words) that explains them, then 3 to 8 new practice questions on the same ideas.`,
          ITEM_RULES,
          `Missed items (with correct answers):\n${wrong.map((q) => `- ${statementOf(q) ?? `${q.text} (answer: ${q.correctAnswer})`}`).join('\n') || '- (none: extend the topic instead)'}`,
          ...(retry?.avoid.length
            ? [
                `The student is trying again: ask other questions than these:\n${retry.avoid.map((t) => `- ${t}`).join('\n')}`,
              ]
            : []),
          `Lesson text:\n"""\n${redactForPrompt(studyText(lesson))}\n"""`,
        ].join('\n\n'),
        [...lesson.questions.map((q) => q.text), ...(retry?.avoid ?? [])],
        '',
      );
    },

    async writeRecommendation(lesson, s, type) {
      const user = [
        `Write ${type === 'support' ? 'support (re-teaching) recommendations for students below standard' : 'enrichment recommendations for students at or above standard'} for a teacher, in plain text under 250 words, with concrete next steps.`,
        `Assessment: ${redactForPrompt(lesson.title, 200)}; topic: ${redactForPrompt(lessonName(lesson), 200)}; ${lesson.questions.length} questions.`,
        `Results so far: ${s.total} submitted, average ${s.averagePercent}%, below standard ${s.below}, at standard ${s.at}${s.raised ? ` (${s.raised} raised by support practice)` : ''}, above standard ${s.above}.`,
        s.mostMissed.length
          ? `Most-missed questions:\n${s.mostMissed.map((m) => `- "${m.text}" (missed ${m.missed} of ${m.answered}; answer: ${m.correctAnswer})`).join('\n')}`
          : 'No question was missed so far.',
      ].join('\n\n');
      for (let round = 0; round < rounds; round++) {
        const text = (await complete(user, undefined))?.trim();
        if (text) return text;
      }
      throw new GenerationError('invalid_output', 'model gave an empty recommendation');
    },
  };
}

/** The chosen standards in a prompt: what to write for, and the only identifiers an item may name. */
function standardsSection(standards: readonly RequestStandard[]): string {
  return [
    'The teacher chose these standards. Write every item for one or more of them, as the lesson text teaches them.',
    'In "standards", list the identifier of each standard the item addresses, copied exactly from this list. Never name any other standard, code or identifier.',
    ...standards.map(
      (s) =>
        `- identifier: ${redactForPrompt(s.identifier, 255)}; code: ${redactForPrompt(s.code, 255)}; statement: ${redactForPrompt(s.statement, 1_000)}`,
    ),
  ].join('\n');
}

function stripFences(raw: string): string {
  return raw
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
}

/** Maps an SDK error to the failure reasons of GenerationFailed. */
export function classify(err: unknown): GenerationError {
  if (err instanceof GenerationError) return err;
  if (err instanceof OpenAI.APIError) {
    const body = (err.error ?? {}) as { code?: unknown; type?: unknown };
    const code = String(err.code ?? body.code ?? '');
    const type = String(err.type ?? body.type ?? '');
    if (code === 'insufficient_quota' || type === 'insufficient_quota')
      return new GenerationError('quota', err.message, false);
    if (err.status === 429) return new GenerationError('rate_limited', err.message, true);
    if (err.status === undefined || err.status >= 500 || err.status === 408 || err.status === 409)
      return new GenerationError('provider_error', err.message, true);
    // 400/401/403/404: the same call would fail again.
    return new GenerationError('provider_error', `${err.status}: ${err.message}`, false);
  }
  return new GenerationError('provider_error', err instanceof Error ? err.message : String(err), true);
}

function backoff(err: unknown, attempt: number, baseMs: number): number {
  const exp = Math.min(baseMs * 2 ** attempt, 30_000);
  const headers = err instanceof OpenAI.APIError ? err.headers : undefined;
  const retryAfterMs = Number(headers?.get('retry-after-ms'));
  const retryAfter = Number(headers?.get('retry-after'));
  const told =
    Number.isFinite(retryAfterMs) && retryAfterMs > 0
      ? retryAfterMs
      : Number.isFinite(retryAfter) && retryAfter > 0
        ? retryAfter * 1000
        : 0;
  // Jitter keeps many workers from retrying in step.
  return Math.min(Math.max(told, exp) + Math.floor(Math.random() * baseMs * 0.2), 30_000);
}
