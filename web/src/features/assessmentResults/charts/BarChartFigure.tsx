// One series of bars (a value per category) as a chart figure with its data table.
import { ChartFigure } from './ChartFigure';

export interface ChartBar {
  label: string;
  value: number;
  /** The value as the table and tooltip show it, e.g. '60%' or '3'. */
  display: string;
  color: string;
}

interface Props {
  title: string;
  xTitle: string;
  yTitle: string;
  bars: ChartBar[];
  /** Fixed top of the value axis (100 for percentages); counts scale to the data. */
  max?: number;
  /** Appended to the value axis ticks, e.g. '%'. */
  unit?: string;
  height?: number;
}

export function BarChartFigure({ title, xTitle, yTitle, bars, max, unit, height }: Props) {
  return (
    <ChartFigure
      title={title}
      xTitle={xTitle}
      yTitle={yTitle}
      max={max}
      unit={unit}
      height={height}
      categories={bars.map((b) => b.label)}
      series={[
        {
          label: yTitle,
          color: bars[0]?.color ?? 'currentColor',
          colors: bars.map((b) => b.color),
          values: bars.map((b) => b.value),
          displays: bars.map((b) => b.display),
        },
      ]}
      summary={bars.map((b) => `${b.label}: ${b.display}`).join(', ')}
      table={{
        headings: [xTitle, yTitle],
        rows: bars.map((b) => ({ key: b.label, cells: [b.label, b.display] })),
      }}
    />
  );
}
