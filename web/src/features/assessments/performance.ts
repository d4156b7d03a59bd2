// Performance levels (docs/adr/005): the level name of one result is always the
// server's performanceLevel (below < 80, at ≥ 80, above ≥ 90, raised to at by support practice),
// on every screen. Score thresholds of their own apply only to what several results add up to and
// to the practice link.
import type { PerformanceLevel, PracticeType } from './assessmentsApi';

export interface Band {
  level: PerformanceLevel;
  label: 'Above Standard' | 'At Standard' | 'Below Standard';
  /** react-bootstrap colour of the badge (green, yellow, red). */
  variant: 'success' | 'warning' | 'danger';
}

const BANDS: Record<PerformanceLevel, Band> = {
  above: { level: 'above', label: 'Above Standard', variant: 'success' },
  at: { level: 'at', label: 'At Standard', variant: 'warning' },
  below: { level: 'below', label: 'Below Standard', variant: 'danger' },
};

export function isLevel(level: unknown): level is PerformanceLevel {
  return level === 'above' || level === 'at' || level === 'below';
}

/** Name and colour of one of the three levels. */
export function levelBand(level: PerformanceLevel): Band {
  return BANDS[level];
}

/** Name and colour of a result's performanceLevel (an unknown value reads as below). */
export function bandForLevel(level: string): Band {
  return isLevel(level) ? BANDS[level] : BANDS.below;
}

/** One result's level as the server holds it (docs/adr/005): raisedBy is set when practice raised it. */
export interface ResultLevelFields {
  performanceLevel: string;
  originalLevel?: string | null;
  raisedBy?: string | null;
  /** Which practice attempt (from 1) raised it; null or absent when not known. */
  raisedAttempt?: number | null;
}

/** 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** '1st try', '2nd try': the practice attempt that raised a level, or null when not known. */
function tryOf(r: ResultLevelFields): string | null {
  return r.raisedAttempt && r.raisedAttempt >= 1 ? `${ordinal(r.raisedAttempt)} try` : null;
}

/** Whether practice raised this result's level since its score gave it. */
export function isRaised(r: ResultLevelFields): boolean {
  return r.raisedBy === 'practice';
}

/**
 * How a raised level is told next to the original score, e.g. 'raised to At Standard by practice
 * (2nd try)' (the attempt when known, so a teacher can judge the raise);
 * null when the level is the score's own.
 */
export function raisedNote(r: ResultLevelFields): string | null {
  if (!isRaised(r)) return null;
  const attempt = tryOf(r);
  return `raised to ${bandForLevel(r.performanceLevel).label} by practice${attempt ? ` (${attempt})` : ''}`;
}

/** The whole level of one result in words: 'At Standard', or '… (raised by practice from Below Standard)'. */
export function resultLevelText(r: ResultLevelFields): string {
  const label = bandForLevel(r.performanceLevel).label;
  if (!isRaised(r)) return label;
  const from = isLevel(r.originalLevel) ? ` from ${levelBand(r.originalLevel).label}` : '';
  const attempt = tryOf(r);
  return `${label} (raised by practice${from}${attempt ? `, ${attempt}` : ''})`;
}

/**
 * The 80/60 band of an average of several results (reports, All Students), worded with
 * its thresholds so that it is never read as the level of a result.
 */
export const AVERAGE_BAND_TEXT: Record<PerformanceLevel, string> = {
  above: 'Above (average 80% or more)',
  at: 'At (average 60-79%)',
  below: 'Below (average under 60%)',
};

/** Student dashboard: 'Above Standard' counts scores of 80 or more; practice splits there too. */
export const ABOVE_STANDARD_SCORE = 80;

/** Below 80: support material; 80 or more: enrichment. */
export function practiceTypeFor(score: number): PracticeType {
  return score >= ABOVE_STANDARD_SCORE ? 'enrichment' : 'support';
}

/** Said instead of the practice links on an attempt that does not count: practice follows the counted one. */
export const NOT_COUNTED_PRACTICE = 'Practice follows the attempt that counts: open it from that result.';

/** The practice link of a result, from its exact score (79.6 is below 80 even though it shows as 80%). */
export function practiceLink(assessmentId: string, score: number): { to: string; label: string } {
  const type = practiceTypeFor(score);
  return {
    to: `/support/${assessmentId}/${type}`,
    label: type === 'support' ? 'Extra Help Materials' : 'Challenge Work',
  };
}

/**
 * The result-based practice of one result: written from the questions
 * this result got wrong. A student opens it at /support-content/{resultId}; the teacher of the
 * assessment at /interactive-support/{resultId} (the teachers' route set), to see or try it.
 */
export function resultPracticeLink(resultId: string, as: 'student' | 'teacher'): { to: string; label: string } {
  return as === 'student'
    ? { to: `/support-content/${resultId}`, label: 'Practice from This Result' }
    : { to: `/interactive-support/${resultId}`, label: 'Open Practice' };
}

/** A percentage as a number (results carry numeric strings too); 0 when it is not one. */
export function toPercent(value: number | string | null | undefined): number {
  const n = typeof value === 'string' ? Number.parseFloat(value) : (value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** Percentages are shown rounded to whole numbers. */
export function roundPercent(value: number | string | null | undefined): number {
  return Math.round(toPercent(value));
}
