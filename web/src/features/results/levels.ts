// Names and colours of the three performance levels on the teacher's results screens (spec §4):
// above, at and below map to green, yellow and red; anything else (no result, unknown) is neutral grey.
import { percent } from '../classes/classStats';
import type { Level } from './resultsApi';

export type LevelLabel = 'Above Standard' | 'At Standard' | 'Below Standard';
export type LevelVariant = 'success' | 'warning' | 'danger' | 'secondary';

const LABELS: Record<Level, LevelLabel> = { above: 'Above Standard', at: 'At Standard', below: 'Below Standard' };
const VARIANTS: Record<Level, LevelVariant> = { above: 'success', at: 'warning', below: 'danger' };

function isLevel(value: unknown): value is Level {
  return value === 'above' || value === 'at' || value === 'below';
}

export function levelLabel(level: string | null | undefined): LevelLabel | null {
  return isLevel(level) ? LABELS[level] : null;
}

/** react-bootstrap colour of a level; neutral grey when it is none of the three. */
export function levelVariant(level: string | null | undefined): LevelVariant {
  return isLevel(level) ? VARIANTS[level] : 'secondary';
}

/** A percentage as shown: rounded to a whole number (spec §9), e.g. '85%'. */
export function formatPercent(value: number): string {
  return `${Math.round(value)}%`;
}

export interface BandPercents {
  total: number;
  above: number;
  at: number;
  below: number;
}

/** Share of each level among the results: count / total results × 100, rounded; 0 with no results (spec §4). */
export function bandPercents(results: readonly { performanceLevel: string }[]): BandPercents {
  const counts = { above: 0, at: 0, below: 0 };
  for (const r of results) if (isLevel(r.performanceLevel)) counts[r.performanceLevel] += 1;
  const total = results.length;
  return {
    total,
    above: percent(counts.above, total),
    at: percent(counts.at, total),
    below: percent(counts.below, total),
  };
}
