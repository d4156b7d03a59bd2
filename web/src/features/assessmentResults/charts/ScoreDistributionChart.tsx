import type { AssessmentResults } from '../../results';
import { BarChartFigure } from './BarChartFigure';
import { CHART_COLORS } from './chartColors';

/** How many results fall in each ten-point bucket of percentages. */
export function ScoreDistributionChart({ distribution }: { distribution: AssessmentResults['distribution'] }) {
  return (
    <BarChartFigure
      title="Score distribution"
      xTitle="Score range (%)"
      yTitle="Students"
      bars={distribution.map((d) => ({
        label: d.range,
        value: d.count,
        display: String(d.count),
        color: CHART_COLORS.primary,
      }))}
    />
  );
}
