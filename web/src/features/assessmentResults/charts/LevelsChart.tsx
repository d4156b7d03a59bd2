import { BarChartFigure } from './BarChartFigure';
import { CHART_COLORS } from './chartColors';
import { useTranslation } from '../../../i18n/react';
import { useLabel } from '../../../i18n/labels';
import { formatPercent } from '../../../i18n/format';

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
  const { t } = useTranslation('results');
  const label = useLabel();
  return (
    <BarChartFigure
      title={t('charts.byLevel')}
      xTitle={t('table.level')}
      yTitle={t('charts.results')}
      bars={[
        {
          label: label('Above Standard'),
          value: levels.above,
          display: `${levels.above} (${formatPercent(levels.abovePercent)})`,
          color: CHART_COLORS.above,
        },
        {
          label: label('At Standard'),
          value: levels.at,
          display: `${levels.at} (${formatPercent(levels.atPercent)})`,
          color: CHART_COLORS.at,
        },
        {
          label: label('Below Standard'),
          value: levels.below,
          display: `${levels.below} (${formatPercent(levels.belowPercent)})`,
          color: CHART_COLORS.below,
        },
      ]}
    />
  );
}
