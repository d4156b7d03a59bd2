import { bandForLevel, type Band } from '../assessments/performance';

/** Reports use the 80/60 bands (spec §4, §9): 80+ above, 60–79 at, below 60 below. */
export function reportBand(score: number): Band {
  return bandForLevel(score >= 80 ? 'above' : score >= 60 ? 'at' : 'below');
}
