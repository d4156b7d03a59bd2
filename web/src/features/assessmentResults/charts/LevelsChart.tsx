import { BarChartFigure } from './BarChartFigure';
import { CHART_COLORS } from './chartColors';

interface Levels {
  above: number;
  at: number;
  below: number;
  abovePercent: number;
  atPercent: number;
  belowPercent: number;
}

/** Results per performance level; the bar's name, not its colour, says which level it is. */
export function LevelsChart({ levels }: { levels: Levels }) {
  return (
    <BarChartFigure
      title="Results by performance level"
      xTitle="Level"
      yTitle="Results"
      bars={[
        {
          label: 'Above Standard',
          value: levels.above,
          display: `${levels.above} (${levels.abovePercent}%)`,
          color: CHART_COLORS.above,
        },
        {
          label: 'At Standard',
          value: levels.at,
          display: `${levels.at} (${levels.atPercent}%)`,
          color: CHART_COLORS.at,
        },
        {
          label: 'Below Standard',
          value: levels.below,
          display: `${levels.below} (${levels.belowPercent}%)`,
          color: CHART_COLORS.below,
        },
      ]}
    />
  );
}
