import type { ItemStatistics } from '../../results';
import { BarChartFigure } from './BarChartFigure';
import { sharePercent } from './sharePercent';
import { CHART_COLORS } from './chartColors';
import { useTranslation } from '../../../i18n/react';
import { formatPercent } from '../../../i18n/format';

/** Share of results that answered each question correctly (low bars: hard questions). */
export function ItemDifficultyChart({ questions }: { questions: ItemStatistics[] }) {
  const { t } = useTranslation('results');
  return (
    <BarChartFigure
      title={t('charts.difficulty')}
      xTitle={t('items.question')}
      yTitle={t('items.shareCorrect')}
      max={100}
      unit="%"
      bars={questions.map((q) => {
        const percent = sharePercent(q.shareCorrect);
        return {
          label: t('questionShort', { position: q.position }),
          value: percent ?? 0,
          display: percent === null ? '—' : formatPercent(percent),
          color: CHART_COLORS.item,
        };
      })}
    />
  );
}
