// Teacher guidance for the assessment list's AI Recommendation buttons: what the class's results
// so far say (counts per level, most-missed questions) and what to do next. The offline writer
// composes it from those real numbers and the questions; no student is named.
import { lessonBasis, lessonName, type LessonFacts, type PracticeType } from './practice.ts';
import { analyseLesson } from './lesson.ts';

export interface ResultFacts {
  percentage: number;
  level: string;
  answers: { questionId: string; correct: boolean }[];
}

export interface QuestionMisses {
  questionId: string;
  text: string;
  correctAnswer: string;
  missed: number;
  answered: number;
}

export interface ResultsSummary {
  total: number;
  below: number;
  at: number;
  above: number;
  /** Of `at`: results raised from below by support practice (an 'at' scored under 80 %, docs/adr/005). */
  raised: number;
  averagePercent: number;
  /** Most missed first; only questions someone missed. */
  mostMissed: QuestionMisses[];
  mostCorrect: QuestionMisses[];
}

export function summarizeResults(l: LessonFacts, results: readonly ResultFacts[]): ResultsSummary {
  const stats = new Map<string, QuestionMisses>(
    l.questions.map((q) => [
      q.id,
      { questionId: q.id, text: q.text, correctAnswer: q.correctAnswer, missed: 0, answered: 0 },
    ]),
  );
  for (const r of results) {
    const answered = new Set<string>();
    for (const a of r.answers) {
      const s = stats.get(a.questionId);
      if (!s) continue;
      answered.add(a.questionId);
      s.answered++;
      if (!a.correct) s.missed++;
    }
    // An unanswered question counts as missed.
    for (const s of stats.values()) {
      if (answered.has(s.questionId)) continue;
      s.answered++;
      s.missed++;
    }
  }
  const all = [...stats.values()];
  const order = l.questions.map((q) => q.id);
  const byOrder = (a: QuestionMisses, b: QuestionMisses) => order.indexOf(a.questionId) - order.indexOf(b.questionId);
  const total = results.length;
  return {
    total,
    below: results.filter((r) => r.level === 'below').length,
    at: results.filter((r) => r.level === 'at').length,
    above: results.filter((r) => r.level === 'above').length,
    // Only support practice raises a level, and only below to at: an 'at' under 80 % was raised.
    raised: results.filter((r) => r.level === 'at' && r.percentage < 80).length,
    averagePercent: total ? Math.round(results.reduce((s, r) => s + r.percentage, 0) / total) : 0,
    mostMissed: all
      .filter((s) => s.missed > 0)
      .sort((a, b) => b.missed - a.missed || byOrder(a, b))
      .slice(0, 3),
    mostCorrect: total
      ? all
          .filter((s) => s.answered > 0 && s.missed === 0)
          .sort(byOrder)
          .slice(0, 3)
      : [],
  };
}

/** A cache key: the guidance is written again only when the results or the lesson change. */
export const recommendationBasis = (l: LessonFacts, s: ResultsSummary) =>
  `${s.total}|${s.below}|${s.at}|${s.raised}|${s.above}|${s.averagePercent}|${s.mostMissed.map((m) => `${m.questionId}:${m.missed}`).join(',')}|${lessonBasis(l)}`;

const pct = (n: number, total: number) => (total ? Math.round((n / total) * 100) : 0);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function composeRecommendation(l: LessonFacts, s: ResultsSummary, type: PracticeType): string {
  const name = lessonName(l);
  const terms = (() => {
    // Key terms of the teacher's text; hand-written questions only give their answers.
    if (!l.content.trim())
      return [...new Set(l.questions.map((q) => q.correctAnswer))]
        .filter((a) => !/^(?:true|false)$/i.test(a))
        .slice(0, 4);
    const a = analyseLesson(l.content);
    return a.ranked
      .map((k) => a.terms.get(k)!)
      .filter((t) => t.kind !== 'year' && t.kind !== 'number' && t.kind !== 'percent')
      .slice(0, 4)
      .map((t) => t.text);
  })();
  const lines: string[] = [
    `${type === 'support' ? 'Support' : 'Enrichment'} recommendations: ${l.title}`,
    `Topic: ${name}`,
    `Questions: ${l.questions.length}`,
    '',
  ];
  if (s.total === 0) {
    lines.push(
      'No results have been submitted yet, so this guidance is based on the assessment itself.',
      type === 'support'
        ? `Before students start, pre-teach the key terms${terms.length ? ` (${terms.join(', ')})` : ''} and model one question of each type.`
        : `Prepare an extension task that asks students to connect ${terms.slice(0, 2).join(' and ') || name} to a new situation.`,
    );
    return lines.join('\n');
  }
  lines.push(
    `Results so far: ${plural(s.total, 'submission')}, average ${s.averagePercent}%.`,
    `Below standard: ${s.below} (${pct(s.below, s.total)}%); at standard: ${s.at} (${pct(s.at, s.total)}%${s.raised ? `, ${s.raised} of them raised by support practice` : ''}); above standard: ${s.above} (${pct(s.above, s.total)}%).`,
    '',
  );
  if (type === 'support') {
    if (s.below === 0)
      lines.push(
        'No student is below standard right now; keep the support material available for anyone who needs a refresher.',
      );
    else
      lines.push(
        `${plural(s.below, 'student is', 'students are')} below standard (under 80%). Plan a small-group re-teach for them before moving on.`,
      );
    if (s.mostMissed.length) {
      lines.push('', 'Most-missed questions to re-teach:');
      for (const m of s.mostMissed)
        lines.push(`• "${m.text}" — missed by ${m.missed} of ${m.answered}. Correct answer: ${m.correctAnswer}.`);
      lines.push(
        '',
        'Next steps:',
        `1. Re-explain the idea behind "${s.mostMissed[0]!.correctAnswer}" with a worked example, then check understanding with a quick oral question.`,
        '2. Assign the Support practice (Extra Help Materials); a score of 80% or more raises a result to At Standard.',
        '3. Pair students who struggled with a peer who answered these questions correctly.',
      );
    } else lines.push('', 'Every question was answered correctly by every student: no re-teach needed.');
  } else {
    const ready = s.at + s.above;
    lines.push(
      ready === 0
        ? 'No student has reached the standard yet; secure the basics with the support material first.'
        : `${plural(ready, 'student is', 'students are')} at or above standard and ready for enrichment (${plural(s.above, 'student')} above 90%).`,
    );
    if (s.mostCorrect.length) {
      lines.push('', 'Mastered by everyone so far:');
      for (const m of s.mostCorrect) lines.push(`• "${m.text}"`);
    }
    lines.push(
      '',
      'Extension ideas:',
      `1. Ask students to explain how ${terms[0] ?? name} connects to ${terms[1] ?? 'a real-world example'} in a short paragraph.`,
      `2. Have students write two new questions about ${name}, with answers, for a classmate.`,
      '3. Assign the Enrichment practice (Challenge Work) and discuss the hardest item together.',
    );
    if (s.mostMissed.length)
      lines.push(
        `4. Even strong students missed "${s.mostMissed[0]!.text}" most often (${s.mostMissed[0]!.missed} of ${s.mostMissed[0]!.answered}); use it as a discussion starter.`,
      );
  }
  return lines.join('\n');
}
