// Practice material, its completion, result-based practice and teacher recommendations. Material
// is written by the configured provider and cached until the teacher edits the lesson (its basis
// changes); when the model fails or the teacher's generation budget is spent, the offline writer
// steps in (labelled as such) so a student is never left without practice.
import type { Caller } from '@checkpoint/service-kit';
import { lessonOf, type AssessmentRecord, type AssessmentsRepository } from '../data-access/assessments.repository.ts';
import type { PracticeRepository, StoredMaterial } from '../data-access/practice.repository.ts';
import type { Provider } from '../providers/provider.ts';
import type { AccessRules } from './access.ts';
import {
  PracticeAttemptFinalError,
  PracticeChangedError,
  PracticeRoundStaleError,
  PracticeRoundsUsedError,
  ResultNotFoundError,
} from './errors.ts';
import { seededRandom, shuffled } from './lesson.ts';
import {
  completionMessage,
  lessonBasis,
  materialVersion,
  PRACTICE_MAX_ROUNDS,
  practiceTypeForLevel,
  reviewOfMissed,
  scorePractice,
  withoutKey,
  type PracticeQuestion,
  withFewerChoices,
  type PracticeType,
  type PublicPracticeQuestion,
} from './practice.ts';
import { recommendationBasis, summarizeResults } from './recommendations.ts';

export interface PracticeUseCasesDeps {
  access: AccessRules;
  assessments: AssessmentsRepository;
  practice: PracticeRepository;
  provider: Provider;
  offline: Provider;
  /** False when the teacher's generation budget for this minute is spent (model calls only). */
  mayCallModel: (teacherId: string) => Promise<boolean>;
  onProviderError?: (err: unknown) => void;
}

export type PracticeUseCases = ReturnType<typeof practiceUseCases>;

const shuffledFor = <T>(items: readonly T[], seed: string) => shuffled(items, seededRandom(seed));

export function practiceUseCases(d: PracticeUseCasesDeps) {
  /** The configured provider, falling back to offline on failure or an exhausted budget. */
  async function write<T>(
    teacherId: string,
    run: (p: Provider) => Promise<T>,
  ): Promise<{ value: T; provider: string }> {
    if (d.provider.name !== 'offline' && (await d.mayCallModel(teacherId))) {
      try {
        return { value: await run(d.provider), provider: d.provider.name };
      } catch (err) {
        d.onProviderError?.(err);
      }
    }
    return { value: await run(d.offline), provider: d.offline.name };
  }

  /** Cached per assessment and type while the lesson is unchanged; written again after an edit. */
  async function material(a: AssessmentRecord, type: PracticeType): Promise<StoredMaterial> {
    const lesson = lessonOf(a);
    const basis = lessonBasis(lesson);
    const cached = await d.practice.findMaterial(a.id, type);
    if (cached?.basis === basis) return cached;
    const { value, provider } = await write(a.teacherId, (p) => p.writePractice(lesson, type));
    return d.practice.saveMaterial(a.id, a.tenantId, type, { ...value, provider, basis });
  }

  async function resultPractice(
    a: AssessmentRecord,
    r: { id: string; level: string; answers: Parameters<Provider['writeResultPractice']>[1] },
  ) {
    const cached = await d.practice.findResultPractice(r.id);
    if (cached) return cached;
    const type = practiceTypeForLevel(r.level);
    const { value, provider } = await write(a.teacherId, (p) => p.writeResultPractice(lessonOf(a), r.answers, type));
    if (value.questions.length === 0) throw new ResultNotFoundError();
    return d.practice.saveResultPractice(
      { resultId: r.id, assessmentId: a.id, tenantId: a.tenantId, type },
      { ...value, provider },
    );
  }

  return {
    /**
     * The class's teacher gets the answer keys; a student never does (SECURITY: support practice
     * at 80 % raises their level, so keys in the browser would be a level for free). Their answers
     * are scored here by `complete`.
     */
    async getMaterial(
      caller: Caller,
      assessmentId: string,
      type: PracticeType,
    ): Promise<{
      type: PracticeType;
      provider: string;
      version: string;
      reading: string;
      questions: (PracticeQuestion | PublicPracticeQuestion)[];
    }> {
      const { assessment: a, asTeacher: owner } = await d.access.practiceAssessment(caller, assessmentId);
      const m = await material(a, type);
      const fewer = owner ? 0 : await d.assessments.reducedChoicesOf(caller.userId);
      const questions = owner
        ? m.questions
        : m.questions.map((q) => withoutKey(withFewerChoices(q, a.id, caller.userId, fewer)));
      // A student's support reading starts with what they missed (the material itself is shared,
      // and its version stays that of the shared material, which is what the answers are scored on).
      const result = !owner && type === 'support' ? await d.assessments.latestResult(a.id, caller.userId) : undefined;
      const review = result
        ? reviewOfMissed(
            lessonOf(a),
            result.answers,
            m.questions.map((q) => q.question),
          )
        : '';
      const reading = review ? `${review}\n\n${m.reading}` : m.reading;
      return { type, provider: m.provider, version: materialVersion(m), reading, questions };
    },

    async complete(
      caller: Caller,
      assessmentId: string,
      type: PracticeType,
      responses: Record<string, string>,
      version?: string,
    ) {
      const { assessment: a } = await d.access.practiceAssessment(caller, assessmentId);
      const m = await material(a, type);
      // Question ids are positions: answers to an earlier version would be scored against other questions.
      if (version !== undefined && version !== materialVersion(m)) throw new PracticeChangedError();
      // The client's score is never trusted: scored here from the stored answers.
      const s = scorePractice(m.questions, (i) => responses[m.questions[i]!.id]);
      // Shared, fixed items: bounded attempts, so the scores are no oracle for the key.
      const recorded = await d.practice.recordCompletion(
        { assessmentId: a.id, tenantId: a.tenantId, studentId: caller.userId, type, scorePercent: s.score },
        PRACTICE_MAX_ROUNDS,
      );
      if (!recorded) throw new PracticeRoundsUsedError(PRACTICE_MAX_ROUNDS);
      return {
        score: s.score,
        correct: s.correct,
        total: s.total,
        passed: s.passed,
        message: completionMessage(s, type),
      };
    },

    async getResultContent(caller: Caller, resultId: string) {
      const { result, assessment, asStudent } = await d.access.result(caller, resultId);
      const p = await resultPractice(assessment, result);
      // The student with fewer answer choices sees them here too; a teacher trying it sees all.
      const fewer = asStudent ? await d.assessments.reducedChoicesOf(result.studentId) : 0;
      const shown = p.questions.map((q) => withFewerChoices(q, `${resultId}:${p.round}`, result.studentId, fewer));
      return {
        resultId,
        assessmentId: assessment.id,
        performanceLevel: p.type === 'support' ? 'below' : result.level === 'below' ? 'at' : result.level,
        type: p.type,
        provider: p.provider,
        reading: p.reading,
        questions: shown.map((q) => ({ question: q.question, type: q.type, options: q.options })),
        lastAttempt: p.attemptScore === null ? null : { score: p.attemptScore, passed: p.attemptScore >= 80 },
        round: p.round,
      };
    },

    /**
     * A student's submit is the round's one final attempt: the score (which can raise the level)
     * is told once per round, so resubmitting varied answers is no oracle for the key. Another
     * round needs Try Again (bounded, new items where the lesson allows). A submit for a round
     * that Try Again replaced (a tab open from before) is refused.
     */
    async submitResultPractice(caller: Caller, resultId: string, answers: Record<string, string>, round?: number) {
      const { result, assessment, asStudent } = await d.access.result(caller, resultId);
      const p = await resultPractice(assessment, result);
      if (round !== undefined && round !== p.round) throw new PracticeRoundStaleError(round);
      const s = scorePractice(p.questions, (i) => answers[String(i)]);
      // A teacher trying the practice is not the student's attempt: scored, not stored.
      if (asStudent) {
        if (p.attemptScore !== null) throw new PracticeAttemptFinalError();
        const stored = await d.practice.recordAttempt(resultId, p.round, answers, s.score, {
          assessmentId: assessment.id,
          tenantId: assessment.tenantId,
          studentId: result.studentId,
          type: p.type,
          scorePercent: s.score,
          resultId,
        });
        if (stored === 'stale') throw new PracticeRoundStaleError(p.round);
        if (stored === 'final') throw new PracticeAttemptFinalError();
      }
      return {
        score: s.score,
        correct: s.correct,
        total: s.total,
        passed: s.passed,
        message: completionMessage(s, p.type),
      };
    },

    /**
     * "Try Again": the student's practice is written anew, asking other items than the last round
     * where the lesson allows, in another order. A teacher trying it changes nothing.
     */
    async restartResultPractice(caller: Caller, resultId: string) {
      const { result, assessment, asStudent } = await d.access.result(caller, resultId);
      if (!asStudent) return { message: 'Practice restarted' };
      const p = await resultPractice(assessment, result);
      const round = p.round + 1;
      // Rounds are numbered from 0: at most PRACTICE_MAX_ROUNDS attempts per result.
      if (round >= PRACTICE_MAX_ROUNDS) throw new PracticeRoundsUsedError(PRACTICE_MAX_ROUNDS);
      const { value, provider } = await write(assessment.teacherId, (w) =>
        w.writeResultPractice(lessonOf(assessment), result.answers, p.type, {
          round,
          avoid: p.questions.map((q) => q.question),
        }),
      );
      // Nothing new to ask: the same questions again, in another order.
      const questions = value.questions.length ? value.questions : shuffledFor(p.questions, `${resultId}:${round}`);
      // Another tab's Try Again got there first: that round stands (no skipping past the bound).
      await d.practice.startRound(resultId, round, { ...value, questions, provider });
      return { message: 'Practice restarted' };
    },

    /**
     * A teacher of the assessment's class reads it written from every result; a teacher of classes
     * it is given to (and not of its own) from the results taken in those classes only, kept apart.
     */
    async recommendation(caller: Caller, assessmentId: string, type: PracticeType) {
      const { assessment: a, classIds } = await d.access.teacherAssessment(caller, assessmentId);
      const lesson = lessonOf(a);
      const summary = summarizeResults(lesson, await d.assessments.resultsOf(a.id, classIds ?? undefined));
      const basis = recommendationBasis(lesson, summary);
      const scope = classIds ? classIds.join(',') : '';
      const cached = await d.practice.findRecommendation(a.id, type, scope);
      if (cached && cached.basis === basis)
        return {
          type,
          text: cached.text,
          provider: cached.provider,
          generatedAt: cached.generatedAt.toISOString(),
          summary,
        };
      const { value, provider } = await write(a.teacherId, (p) => p.writeRecommendation(lesson, summary, type));
      const generatedAt = new Date();
      await d.practice.saveRecommendation(a.id, a.tenantId, type, scope, { text: value, provider, basis, generatedAt });
      return { type, text: value, provider, generatedAt: generatedAt.toISOString(), summary };
    },
  };
}
