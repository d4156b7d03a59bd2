// Levels over time: results per period stacked by band (80/60), with a legend naming the bands and
// the same counts as a table, so colour is never the only carrier.
import { ChartFigure } from './ChartFigure';
import { CHART_COLORS } from './chartColors';
import { formatDate } from '../../../i18n/format';
import { useTranslation } from '../../../i18n/react';
import { useLabel } from '../../../i18n/labels';

export interface LevelsPeriod {
  period: string;
  above: number;
  at: number;
  below: number;
}

/** Bottom to top of each stack. */
const LEVEL_SERIES = [
  { key: 'above', label: 'Above Standard', color: CHART_COLORS.above },
  { key: 'at', label: 'At Standard', color: CHART_COLORS.at },
  { key: 'below', label: 'Below Standard', color: CHART_COLORS.below },
] as const;

const periodLabel = (period: string) =>
  formatDate(`${period}T00:00:00Z`, { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function LevelsOverTimeChart({ periods }: { periods: LevelsPeriod[] }) {
  const { t } = useTranslation('results');
  const label = useLabel();
  const SERIES = LEVEL_SERIES.map((s) => ({ ...s, label: label(s.label) }));
  const labels = periods.map((p) => periodLabel(p.period));
  const summary = periods
    .map((p, i) => `${labels[i]}: ${SERIES.map((s) => `${p[s.key]} ${s.label}`).join(', ')}`)
    .join('; ');
  return (
    <ChartFigure
      title={t('charts.overTime')}
      xTitle={t('charts.periodStarting')}
      yTitle={t('charts.results')}
      categories={labels}
      series={SERIES.map((s) => ({ label: s.label, color: s.color, values: periods.map((p) => p[s.key]) }))}
      summary={summary}
      table={{
        headings: [t('charts.periodStarting'), ...SERIES.map((s) => s.label)],
        rows: periods.map((p, i) => ({
          key: p.period,
          cells: [labels[i]!, ...SERIES.map((s) => String(p[s.key]))],
        })),
      }}
    />
  );
}
