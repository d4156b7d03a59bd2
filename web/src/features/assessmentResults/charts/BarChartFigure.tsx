// One series of bars (a value per category) as a chart figure with its data table.
import type { ChartData, ChartOptions } from 'chart.js';
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

export function BarChartFigure({ title, xTitle, yTitle, bars, max, unit = '', height = 260 }: Props) {
  const data: ChartData<'bar', number[], string> = {
    labels: bars.map((b) => b.label),
    datasets: [{ label: yTitle, data: bars.map((b) => b.value), backgroundColor: bars.map((b) => b.color) }],
  };
  const options: ChartOptions<'bar'> = {
    responsive: true,
    maintainAspectRatio: false,
    plugins: {
      legend: { display: false },
      tooltip: { callbacks: { label: (item) => `${yTitle}: ${bars[item.dataIndex]?.display ?? ''}` } },
    },
    scales: {
      x: { title: { display: true, text: xTitle } },
      y: {
        beginAtZero: true,
        max,
        title: { display: true, text: yTitle },
        ticks: { precision: 0, callback: (value) => `${value}${unit}` },
      },
    },
  };
  const summary = bars.map((b) => `${b.label}: ${b.display}`).join(', ');

  return (
    <ChartFigure
      title={title}
      data={data}
      options={options}
      summary={summary}
      height={height}
      table={{
        headings: [xTitle, yTitle],
        rows: bars.map((b) => ({ key: b.label, cells: [b.label, b.display] })),
      }}
    />
  );
}
