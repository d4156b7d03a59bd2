// The quality corpus: lesson texts written for the gate (several subjects, grades 3–12), one
// file each, named g<grade>-<subject>-<topic>.txt, and the report over them. corpus/ is what the
// generator was tuned on; holdout/ was written apart and never tuned on: the gate reads both and
// reports them apart, so tuning that only fits the first shows.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { qualityReport, type QualityReport } from '../src/domain/item-quality.ts';
import { analyseLesson } from '../src/domain/lesson.ts';
import { buildItems, planTypes, tooLittleText } from '../src/domain/offline-generator.ts';
import type { GeneratedQuestion, RequestedType } from '../src/domain/question.ts';

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'corpus');
export const HOLDOUT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'holdout');
/** Every type a teacher can ask for, with a set size a lesson of 150–400 words should give. */
export const GATE_TYPES: RequestedType[] = ['multiple_choice', 'true_false', 'short_answer', 'mixed'];
export const GATE_COUNT = 10;
export const GATE_PASS_SHARE = 0.9;
/** At least a third of the items ask more than recall of one sentence (item-quality.ts SKILLS). */
export const GATE_BEYOND_RECALL_SHARE = 1 / 3;
/**
 * Of the items asked for, the share made. A lesson that cannot give a whole set of sound items
 * gives fewer and the teacher is told how many (tooLittleText); this floor keeps that the exception.
 */
export const GATE_MADE_SHARE = 0.85;

export interface CorpusLesson {
  file: string;
  grade: number;
  subject: string;
  text: string;
  /** From holdout/: never tuned on. */
  heldOut: boolean;
}

/** The lessons of corpus/ and holdout/ (or of the given folders). */
export function readLessons(dirs = [CORPUS_DIR, HOLDOUT_DIR]): CorpusLesson[] {
  return dirs.flatMap((d) => readCorpus(d));
}

export function readCorpus(dir = CORPUS_DIR): CorpusLesson[] {
  const heldOut = dir === HOLDOUT_DIR;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => {
      const m = /^g(\d{2})-([a-z]+(?:-[a-z]+)*?)-/.exec(file);
      return {
        file,
        grade: Number(m?.[1] ?? 0),
        subject: m?.[2] ?? 'other',
        text: readFileSync(join(dir, file), 'utf8'),
        heldOut,
      };
    });
}

export interface CorpusRun {
  report: QualityReport;
  sets: { file: string; heldOut: boolean; type: RequestedType; questions: GeneratedQuestion[] }[];
  /** The report over the held-out lessons alone. */
  heldOut: QualityReport;
  /** Lessons and types for which no set could be made, with the reason. */
  refused: { file: string; type: RequestedType; reason: string }[];
}

/** Generates every type for every lesson and checks every item. */
export function runCorpus(lessons = readLessons(), count = GATE_COUNT): CorpusRun {
  const sets: CorpusRun['sets'] = [];
  const refused: CorpusRun['refused'] = [];
  const analysed = new Map(lessons.map((l) => [l.file, analyseLesson(l.text)]));
  for (const lesson of lessons)
    for (const type of GATE_TYPES) {
      // As many as the lesson gives: a short set is refused to the teacher with its count, and
      // its items are judged all the same.
      const questions = buildItems(analysed.get(lesson.file)!, planTypes(type, count));
      sets.push({ file: lesson.file, heldOut: lesson.heldOut, type, questions });
      if (questions.length < count)
        refused.push({ file: lesson.file, type, reason: tooLittleText(questions.length, count).message });
    }
  const report = (of: CorpusRun['sets']) =>
    qualityReport(
      of.map((s) => s.questions),
      of.map((s) => analysed.get(s.file)),
    );
  return { report: report(sets), heldOut: report(sets.filter((s) => s.heldOut)), sets, refused };
}
