// generation's facts → this service: generated questions are stored (replacing any while the
// assessment still waits for them), failures recorded for the UI, and support practice at
// mastery raises that student's counted result from below to at (enrichment never lowers anything).
//
// Alignment of generated questions (docs/adr/012-standards.md): an item may name only standards
// the teacher chose for the assessment (assessment_standards). An item naming any other (a code
// or identifier the generator made up) is refused: it is not stored, the others are, and the
// refusal is recorded in the assessment's generationError for the teacher's API to read (none
// stored: the generation failed with that message). The set is not thrown away whole: the job
// succeeded on the generation side and cannot be retried, and the teacher keeps the good items.
import type { InboxHandlers } from '@checkpoint/events';
import { assessmentStandards, insertQuestions, listQuestions } from '../data-access/teacher-assessments.repository.ts';
import type { Tx } from '../data-access/prisma.ts';
import {
  isProblem,
  MAX_QUESTIONS,
  normalizeQuestion,
  parseOptions,
  QUESTION_TYPES,
  type QuestionInput,
} from '../domain/questions.ts';
import { levelAfterPractice, type PerformanceLevel, type RaisedBy } from '../domain/scoring.ts';
import type { StandardRef } from '../domain/standards.ts';
import type { AssessmentEvents } from './assessment-events.publisher.ts';

type Generated = {
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  /** Short answer alternatives, when the generator gives any. */
  acceptedAnswers?: string[];
  points: number;
  /** CFItem identifiers the item was written for. */
  standardIdentifiers?: readonly string[];
};

type Accepted = QuestionInput & { standards: StandardRef[] };

/**
 * Keeps only well-formed items (generation validates too; this side never stores broken ones)
 * aligned only to the assessment's chosen standards; `refused` counts items that named another.
 */
export function acceptGenerated(
  items: Generated[],
  chosen: readonly StandardRef[] = [],
): { accepted: Accepted[]; refused: number } {
  const byIdentifier = new Map(chosen.map((s) => [s.identifier, s]));
  const seen = new Set<string>();
  const accepted: Accepted[] = [];
  let refused = 0;
  for (const item of items) {
    const named = [...new Set(item.standardIdentifiers ?? [])];
    if (named.some((id) => !byIdentifier.has(id))) {
      refused++;
      continue;
    }
    const type = QUESTION_TYPES.find((t) => t === item.questionType);
    const text = item.questionText.trim();
    if (!type || text === '' || item.correctAnswer.trim() === '' || seen.has(text.toLowerCase())) continue;
    const points = Number.isFinite(item.points) && item.points > 0 && item.points <= 100 ? item.points : 1;
    const q = normalizeQuestion({
      questionText: text,
      questionType: type,
      options: parseOptions(item.options),
      correctAnswer: item.correctAnswer,
      acceptedAnswers: item.acceptedAnswers ?? [],
      points,
    });
    if (isProblem(q)) continue;
    seen.add(text.toLowerCase());
    accepted.push({ ...q, standards: named.map((id) => byIdentifier.get(id)!) });
    if (accepted.length === MAX_QUESTIONS) break;
  }
  return { accepted, refused };
}

const refusalNote = (refused: number) =>
  `${refused} generated question${refused === 1 ? ' was' : 's were'} left out: ${refused === 1 ? 'it' : 'they'} named a standard not chosen for this assessment.`;

export function generationEventHandlers(events: AssessmentEvents): InboxHandlers<Tx> {
  return {
    'checkpoint.generation.v1.QuestionsGenerated': async (tx, m) => {
      const a = await tx.assessment.findFirst({ where: { id: m.assessmentId } });
      // Once questions are ready (and maybe edited by the teacher) a late job changes nothing.
      if (!a || a.generationStatus === 'ready') return;
      const { accepted: questions, refused } = acceptGenerated(m.questions, await assessmentStandards(tx, a.id));
      if (questions.length === 0) {
        await tx.assessment.update({
          where: { id: a.id },
          data: {
            generationStatus: 'failed',
            generationError: refused
              ? `No questions were stored: ${refusalNote(refused)} Please add questions or create the assessment again.`
              : 'Failed to create assessment. Please try again.',
          },
        });
        return;
      }
      await tx.question.deleteMany({ where: { assessmentId: a.id } });
      await insertQuestions(tx, a, questions);
      await tx.assessment.update({
        where: { id: a.id },
        data: {
          generationStatus: 'ready',
          generationProvider: m.provider || null,
          generationError: refused ? refusalNote(refused) : null,
          updatedAt: new Date(),
        },
      });
      await events.questionsChanged(tx, a, await listQuestions(tx, a.id));
    },
    'checkpoint.generation.v1.GenerationFailed': async (tx, m) => {
      await tx.assessment.updateMany({
        where: { id: m.assessmentId, generationStatus: { not: 'ready' } },
        data: {
          generationStatus: 'failed',
          generationError: m.message || 'Failed to create assessment. Please try again.',
          updatedAt: new Date(),
        },
      });
    },
    // Practice follows the counted attempt (docs/adr/005, "Retakes"): it raises only the student's
    // result that counts now. Result practice of an attempt that no longer counts (a retake
    // submitted, a better attempt, a reopening) raises nothing; the assessment's shared practice
    // (no result named) raises the counted result, never an earlier attempt.
    'checkpoint.generation.v1.PracticeCompleted': async (tx, m) => {
      const result = await tx.result.findFirst({
        where: {
          assessmentId: m.assessmentId,
          studentId: m.studentId,
          counted: true,
          ...(m.resultId ? { id: m.resultId } : {}),
        },
      });
      if (!result) return;
      const to = levelAfterPractice(result.performanceLevel as PerformanceLevel, m.type, m.scorePercent);
      if (!to) return;
      const changed = await tx.result.updateMany({
        where: { id: result.id, performanceLevel: result.performanceLevel },
        // The score's own level stays on record next to the raised one (docs/adr/005).
        data: {
          performanceLevel: to,
          originalLevel: result.originalLevel ?? result.performanceLevel,
          raisedBy: 'practice' satisfies RaisedBy,
          // Which practice attempt raised it: a teacher judges a third try differently.
          raisedAttempt: m.attempt > 0 ? m.attempt : null,
        },
      });
      if (changed.count === 1) await events.levelRaised(tx, result, result.performanceLevel, to, m.attempt);
    },
  };
}
