// Names and colours of the three performance levels on the teacher's results screens:
// above, at and below map to green, yellow and red; anything else (no result, unknown) is neutral grey.
import { isLevel, levelBand, type Band } from '../assessments';
import { percent } from '../classes';
import { formatPercent as formatLocalePercent } from '../../i18n/format';

export type LevelLabel = Band['label'];
export type LevelVariant = Band['variant'] | 'secondary';

export function levelLabel(level: string | null | undefined): LevelLabel | null {
  return isLevel(level) ? levelBand(level).label : null;
}

/** react-bootstrap colour of a level; neutral grey when it is none of the three. */
export function levelVariant(level: string | null | undefined): LevelVariant {
  return isLevel(level) ? levelBand(level).variant : 'secondary';
}

/** A percentage as shown: rounded to a whole number, in the interface's language, e.g. '85%'. */
export function formatPercent(value: number): string {
  return formatLocalePercent(value);
}

/** A level card's note: its share of the results counted, as a whole percent (33 for '33% of results'). */
export function resultsSharePercent(count: number, total: number): number {
  return percent(count, total);
}

export interface BandPercents {
  total: number;
  above: number;
  at: number;
  below: number;
}

/** Share of each level among the results: count / total results × 100, rounded; 0 with no results. */
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
