// The rule of the "reduced answer choices" accommodation (issue 32), kept in one place because two
// services apply it: the assessment service to the questions a student takes, the generation
// service to the practice it serves.
import { createHash } from 'node:crypto';

/**
 * The options of a multiple-choice question as a student with `reducedChoices` sees them: the key
 * and all but that many distractors (never fewer than one), in the question's order. Which
 * distractors go is derived from the student's and the question's ids, so it is the same on every
 * read and nothing is stored. Any other question keeps its options.
 */
export function reducedOptions(
  q: { id: string; questionType: string; options: readonly string[]; correctAnswer: string },
  studentId: string,
  reducedChoices: number,
): string[] {
  if (q.questionType !== 'multiple_choice' || reducedChoices <= 0) return [...q.options];
  const key = q.correctAnswer.trim().toLowerCase();
  const rank = (option: string) =>
    createHash('sha256').update(['reduce', studentId, q.id, option].join('\0')).digest('hex');
  const distractors = q.options.filter((o) => o.trim().toLowerCase() !== key);
  const removed = new Set(
    distractors
      .map((o) => ({ o, r: rank(o) }))
      .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
      .slice(0, Math.min(reducedChoices, distractors.length - 1))
      .map(({ o }) => o),
  );
  return q.options.filter((o) => !removed.has(o));
}
