import { BarChartFigure } from './BarChartFigure';

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
          color: '#198754',
        },
        { label: 'At Standard', value: levels.at, display: `${levels.at} (${levels.atPercent}%)`, color: '#ffc107' },
        {
          label: 'Below Standard',
          value: levels.below,
          display: `${levels.below} (${levels.belowPercent}%)`,
          color: '#dc3545',
        },
      ]}
    />
  );
}
