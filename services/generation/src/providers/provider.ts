// One interface for whoever writes questions, practice and guidance: the `openai` model or the
// deterministic `offline` writer. Inputs carry lesson text and anonymous numbers only — never a
// student's name or email (SECURITY: privacy operations).
import type { GeneratedQuestion, GenerationRequest } from '../domain/question.ts';
import type { AnswerOutcome, LessonFacts, PracticeRetry, PracticeSet, PracticeType } from '../domain/practice.ts';
import type { ResultsSummary } from '../domain/recommendations.ts';

export type ProviderName = 'openai' | 'offline';

export interface Provider {
  readonly name: ProviderName;
  /** Exactly `request.count` valid, distinct questions, or a GenerationError. */
  generateQuestions(request: GenerationRequest): Promise<GeneratedQuestion[]>;
  writePractice(lesson: LessonFacts, type: PracticeType): Promise<PracticeSet>;
  /** `retry`: the student starts again; other items than `avoid` where the lesson allows. */
  writeResultPractice(
    lesson: LessonFacts,
    outcomes: AnswerOutcome[],
    type: PracticeType,
    retry?: PracticeRetry,
  ): Promise<PracticeSet>;
  writeRecommendation(lesson: LessonFacts, summary: ResultsSummary, type: PracticeType): Promise<string>;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Teacher text bound for a model: e-mail addresses removed, length bounded. */
export function redactForPrompt(text: string, max = 12_000): string {
  return text.replace(EMAIL, '[email removed]').slice(0, max);
}
