// Performance levels and bands (spec §4, §9): the student dashboard shows 80/70 bands; submissions
// are levelled below < 80, at ≥ 80, above ≥ 90 by the server.
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

/** Student dashboard bands: 80+ above (green), 70–79 at (yellow), below 70 below (red). */
export function dashboardBand(score: number): Band {
  if (score >= 80) return BANDS.above;
  if (score >= 70) return BANDS.at;
  return BANDS.below;
}

export function bandForLevel(level: string): Band {
  return level === 'above' || level === 'at' || level === 'below' ? BANDS[level] : BANDS.below;
}

const RANK: Record<PerformanceLevel, number> = { below: 0, at: 1, above: 2 };

/**
 * The badge of a result card: the 80/70 band of the score, unless the server raised the level
 * (support practice at mastery lifts below to at), in which case the raised level shows.
 */
export function resultBand(score: number, performanceLevel: string | undefined): Band {
  const band = dashboardBand(score);
  if (performanceLevel === 'at' || performanceLevel === 'above') {
    const level = bandForLevel(performanceLevel);
    if (RANK[level.level] > RANK[band.level]) return level;
  }
  return band;
}

/** Below 80: support material; 80 or more: enrichment (spec §2). */
export function practiceTypeFor(score: number): PracticeType {
  return score >= 80 ? 'enrichment' : 'support';
}

export function practiceLink(assessmentId: string, score: number): { to: string; label: string } {
  const type = practiceTypeFor(score);
  return {
    to: `/support/${assessmentId}/${type}`,
    label: type === 'support' ? 'Extra Help Materials' : 'Challenge Work',
  };
}

/** Percentages are shown rounded to whole numbers (spec §9). */
export function roundPercent(value: number | string | null | undefined): number {
  const n = typeof value === 'string' ? Number.parseFloat(value) : (value ?? 0);
  return Number.isFinite(n) ? Math.round(n) : 0;
}
