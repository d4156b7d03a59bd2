// The figures the screens show, as pure functions: the 80/60 bands of reports and All
// Students, summary percents, the score distribution and item statistics of one assessment.
import type { Level, RaisedBy } from './events.ts';

/** The name of a level. One result's level is always the server's level (docs/adr/005). */
export const LEVEL_TEXT: Record<Level, string> = {
  above: 'Above Standard',
  at: 'At Standard',
  below: 'Below Standard',
};

/** 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** " (2nd try)": which practice attempt raised a level, so a teacher can judge it; '' when not known. */
export function tryText(attempt: number | null): string {
  return attempt ? ` (${ordinal(attempt)} try)` : '';
}

/**
 * One result's level as the exports write it: the server's level, and when practice raised it,
 * "(raised by practice)" (with the attempt that did: "(raised by practice, 2nd try)") so that it
 * is never taken for what the score gave.
 */
export function resultLevelText(level: Level, raisedBy: RaisedBy | null, raisedAttempt: number | null = null): string {
  if (!raisedBy) return LEVEL_TEXT[level];
  return `${LEVEL_TEXT[level]} (raised by ${raisedBy}${raisedAttempt ? `, ${ordinal(raisedAttempt)} try` : ''})`;
}

/**
 * The 80/60 band of an average (reports, All Students), worded with its thresholds so that it cannot
 * be read as the level of a result (docs/adr/005).
 */
export const AVERAGE_BAND_TEXT: Record<Level, string> = {
  above: 'Above (average 80% or more)',
  at: 'At (average 60-79%)',
  below: 'Below (average under 60%)',
};

/** Reports and All Students: 80+ above, 60–79 at, below 60 below. Applies to averages of several results only; one result's level, and counts of results by level, are the server's level (docs/adr/005). */
export function reportBand(percentage: number): Level {
  if (percentage >= 80) return 'above';
  if (percentage >= 60) return 'at';
  return 'below';
}

/**
 * A student's band (null without results) as their card shows it: reportBand of the rounded average,
 * rounded to 6 decimals first so that the running sums' float noise cannot move it. SQL twin:
 * STUDENT_BAND in data-access/read-model.writer.ts.
 */
export function studentBand(results: number, percentageSum: number): Level | null {
  return results > 0 ? reportBand(Math.round(Math.round((percentageSum / results) * 1e6) / 1e6)) : null;
}

/** Summary percent = count / total results × 100, rounded; 0 when there are no results. */
export function summaryPercent(count: number, total: number): number {
  return total > 0 ? Math.round((count / total) * 100) : 0;
}

/** Rounded to two decimals, for averages sent as numbers. */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

export function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** Ten buckets: 0–9, 10–19, …, 80–89, 90–100 (a perfect score belongs to the last). */
export function distribution(percentages: number[]): { range: string; count: number }[] {
  const buckets = Array.from({ length: 10 }, (_, i) => ({
    range: i === 9 ? '90-100' : `${i * 10}-${i * 10 + 9}`,
    count: 0,
  }));
  for (const p of percentages) buckets[Math.min(9, Math.max(0, Math.floor(p / 10)))]!.count++;
  return buckets;
}

export interface ItemQuestion {
  id: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
}

export interface ItemResult {
  id: string;
  percentage: number;
  /**
   * question id → the stored answer, whether it earned its full points, and whether it waits for
   * the teacher's review (reviewShortAnswers; absent: marked), and the options the student was
   * shown when fewer than all (reduced answer choices; null or absent: all).
   */
  answers: Map<
    string,
    { answer: string; correct: boolean; pending?: boolean; shownOptions?: readonly string[] | null }
  >;
}

export interface ItemStatistics {
  answered: number;
  correctCount: number;
  /** Answers waiting for the teacher's review: neither correct nor incorrect until marked. */
  awaitingReview: number;
  shareCorrect: number | null;
  discrimination: number | null;
  /**
   * count: the results that chose it; shownTo: the marked results that were shown it (fewer than
   * all when some students had reduced answer choices; a short answer: all marked results).
   */
  optionCounts: { option: string; count: number; shownTo: number; correct: boolean }[];
}

const norm = (s: string) => s.trim().toLowerCase();

/** Distinct short answers listed at most; the rest are summed up as 'Other answers'. */
const MAX_FREE_ANSWERS = 10;

/**
 * Item statistics of one question over the results of its assessment.
 * - awaitingReview: results whose answer to it waits for the teacher's review. Such an answer is
 *   neither correct nor incorrect yet: it is left out of shareCorrect, discrimination and the
 *   short answers' list until it is marked (then it counts as marked).
 * - shareCorrect: results that answered it correctly / results whose answer to it is marked (or
 *   blank); null when none is.
 * - discrimination: the upper–lower index D = p(upper) − p(lower), where upper and lower are the
 *   top and bottom 27 % of those results by percentage (at least one each; ties by result id), or
 *   null with fewer than 2. Positive: stronger students got it right more often.
 * - optionCounts: for multiple choice and true/false each option in order (answers matched
 *   case-insensitively), for short answers each distinct marked answer, most frequent first;
 *   with each, shownTo: how many of the marked results were shown it (a student with reduced
 *   answer choices was not shown every option; the key always is).
 */
export function itemStatistics(question: ItemQuestion, results: ItemResult[]): ItemStatistics {
  const answerOf = (r: ItemResult) => r.answers.get(question.id);
  const isCorrect = (r: ItemResult) => answerOf(r)?.correct === true;
  const isPending = (r: ItemResult) => answerOf(r)?.pending === true;
  const answered = results.filter((r) => (answerOf(r)?.answer ?? '').trim() !== '').length;
  const awaitingReview = results.filter(isPending).length;
  const marked = results.filter((r) => !isPending(r));
  const correctCount = marked.filter(isCorrect).length;
  const shareCorrect = marked.length ? correctCount / marked.length : null;

  let discrimination: number | null = null;
  if (marked.length >= 2) {
    const ranked = [...marked].sort((a, b) => b.percentage - a.percentage || a.id.localeCompare(b.id));
    const g = Math.max(1, Math.round(ranked.length * 0.27));
    const share = (group: ItemResult[]) => group.filter(isCorrect).length / group.length;
    discrimination = round2(share(ranked.slice(0, g)) - share(ranked.slice(-g)));
  }

  const chosen = results.map((r) => answerOf(r)?.answer ?? '').filter((a) => a.trim() !== '');
  let optionCounts: ItemStatistics['optionCounts'];
  if (question.options.length > 0) {
    const wasShown = (r: ItemResult, option: string) => {
      const shown = answerOf(r)?.shownOptions;
      return !shown || shown.length === 0 || shown.some((s) => norm(s) === norm(option));
    };
    optionCounts = question.options.map((option) => ({
      option,
      count: chosen.filter((a) => norm(a) === norm(option)).length,
      shownTo: marked.filter((r) => wasShown(r, option)).length,
      correct: norm(option) === norm(question.correctAnswer),
    }));
  } else {
    const counts = new Map<string, ItemStatistics['optionCounts'][number]>();
    for (const r of marked) {
      const a = answerOf(r);
      if (!a || a.answer.trim() === '') continue;
      const key = norm(a.answer);
      const entry = counts.get(key) ?? {
        option: a.answer.trim(),
        count: 0,
        shownTo: marked.length,
        correct: a.correct,
      };
      entry.count++;
      counts.set(key, entry);
    }
    const sorted = [...counts.values()].sort((a, b) => b.count - a.count || a.option.localeCompare(b.option));
    optionCounts = sorted.slice(0, MAX_FREE_ANSWERS);
    const rest = sorted.slice(MAX_FREE_ANSWERS).reduce((n, e) => n + e.count, 0);
    if (rest > 0) optionCounts.push({ option: 'Other answers', count: rest, shownTo: marked.length, correct: false });
  }
  return { answered, correctCount, awaitingReview, shareCorrect, discrimination, optionCounts };
}

/** Map.groupBy (Node 21+) for Node 20. */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
