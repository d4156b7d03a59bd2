// Each student's own order of an assessment's questions and of each multiple-choice question's
// options, when the teacher turns it on: derived from the student's and the question's ids, so it
// is the same on every read (a reload, another device) and nothing is stored per student. Answers
// are stored by question id and as option text, so scoring, the review, item statistics and
// exports never depend on it.
import { createHash } from 'node:crypto';
import type { QuestionRow } from './assessment.ts';

export interface ShuffleSettings {
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
}

const rank = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

/** The items sorted by a rank made from each one: a permutation uniform over the seeds. */
function byRank<T>(items: readonly T[], rankOf: (item: T, index: number) => string): T[] {
  return items
    .map((item, index) => ({ item, r: rankOf(item, index) }))
    .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
    .map(({ item }) => item);
}

/** The questions (in the teacher's order) as this student sees them. */
export function studentOrder<Q extends QuestionRow>(
  questions: readonly Q[],
  studentId: string,
  settings: ShuffleSettings,
): Q[] {
  // Renumbered in the student's order: the positions would otherwise give the teacher's away.
  const ordered = settings.shuffleQuestions
    ? byRank(questions, (q) => rank('question', studentId, q.id)).map((q, i) => ({ ...q, position: i + 1 }))
    : [...questions];
  if (!settings.shuffleOptions) return ordered;
  return ordered.map((q) =>
    q.questionType === 'multiple_choice'
      ? { ...q, options: byRank(q.options, (_, i) => rank('option', studentId, q.id, String(i))) }
      : q,
  );
}
