import type { ItemStatistics } from '../../results';
import { BarChartFigure } from './BarChartFigure';
import { sharePercent } from './sharePercent';
import { CHART_COLORS } from './chartColors';

/** Share of results that answered each question correctly (low bars: hard questions). */
export function ItemDifficultyChart({ questions }: { questions: ItemStatistics[] }) {
  return (
    <BarChartFigure
      title="Item difficulty (share correct)"
      xTitle="Question"
      yTitle="Share correct"
      max={100}
      unit="%"
      bars={questions.map((q) => {
        const percent = sharePercent(q.shareCorrect);
        return {
          label: `Q${q.position}`,
          value: percent ?? 0,
          display: percent === null ? '—' : `${percent}%`,
          color: CHART_COLORS.item,
        };
      })}
    />
  );
}
