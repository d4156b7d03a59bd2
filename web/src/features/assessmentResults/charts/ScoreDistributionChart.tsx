import type { AssessmentResults } from '../../results';
import { BarChartFigure } from './BarChartFigure';
import { CHART_COLORS } from './chartColors';
import { useTranslation } from '../../../i18n/react';

/** How many results fall in each ten-point bucket of percentages. */
export function ScoreDistributionChart({ distribution }: { distribution: AssessmentResults['distribution'] }) {
  const { t } = useTranslation('results');
  return (
    <BarChartFigure
      title={t('charts.distribution')}
      xTitle={t('charts.scoreRange')}
      yTitle={t('charts.students')}
      bars={distribution.map((d) => ({
        label: d.range,
        value: d.count,
        display: String(d.count),
        color: CHART_COLORS.primary,
      }))}
    />
  );
}
