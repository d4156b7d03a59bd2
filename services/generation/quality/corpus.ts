// The quality corpus: lesson texts written for the gate (several subjects, grades 3–12), one
// file each, named g<grade>-<subject>-<topic>.txt, and the report over them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { qualityReport, type QualityReport } from '../src/domain/item-quality.ts';
import { generateOfflineQuestions } from '../src/domain/offline-generator.ts';
import type { GeneratedQuestion, RequestedType } from '../src/domain/question.ts';

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'corpus');
/** Every type a teacher can ask for, with a set size a lesson of 150–400 words should give. */
export const GATE_TYPES: RequestedType[] = ['multiple_choice', 'true_false', 'short_answer', 'mixed'];
export const GATE_COUNT = 10;
export const GATE_PASS_SHARE = 0.9;

export interface CorpusLesson {
  file: string;
  grade: number;
  subject: string;
  text: string;
}

export function readCorpus(dir = CORPUS_DIR): CorpusLesson[] {
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
      };
    });
}

export interface CorpusRun {
  report: QualityReport;
  sets: { file: string; type: RequestedType; questions: GeneratedQuestion[] }[];
  /** Lessons and types for which no set could be made, with the reason. */
  refused: { file: string; type: RequestedType; reason: string }[];
}

/** Generates every type for every lesson and checks every item. */
export function runCorpus(lessons = readCorpus(), count = GATE_COUNT): CorpusRun {
  const sets: CorpusRun['sets'] = [];
  const refused: CorpusRun['refused'] = [];
  for (const lesson of lessons)
    for (const type of GATE_TYPES) {
      try {
        sets.push({
          file: lesson.file,
          type,
          questions: generateOfflineQuestions({ content: lesson.text, questionType: type, count }),
        });
      } catch (err) {
        refused.push({ file: lesson.file, type, reason: err instanceof Error ? err.message : String(err) });
      }
    }
  return { report: qualityReport(sets.map((s) => s.questions)), sets, refused };
}
