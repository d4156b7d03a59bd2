// Levels over time: results per period stacked by band (80/60), with a legend naming the bands and
// the same counts as a table, so colour is never the only carrier.
import { Chart, Legend, type ChartData, type ChartOptions } from 'chart.js';
import { ChartFigure } from './ChartFigure';

Chart.register(Legend);

export interface LevelsPeriod {
  period: string;
  above: number;
  at: number;
  below: number;
}

const SERIES = [
  { key: 'above', label: 'Above Standard', color: '#198754' },
  { key: 'at', label: 'At Standard', color: '#ffc107' },
  { key: 'below', label: 'Below Standard', color: '#dc3545' },
] as const;

const periodLabel = (period: string) =>
  new Date(`${period}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function LevelsOverTimeChart({ periods }: { periods: LevelsPeriod[] }) {
  const title = 'Levels over time';
  const labels = periods.map((p) => periodLabel(p.period));
  const data: ChartData<'bar', number[], string> = {
    labels,
    datasets: SERIES.map((s) => ({ label: s.label, data: periods.map((p) => p[s.key]), backgroundColor: s.color })),
  };
  const options: ChartOptions<'bar'> = {
    responsive: true,
    maintainAspectRatio: false,
    plugins: { legend: { position: 'bottom' } },
    scales: {
      x: { stacked: true, title: { display: true, text: 'Period starting' } },
      y: { stacked: true, beginAtZero: true, title: { display: true, text: 'Results' }, ticks: { precision: 0 } },
    },
  };
  const summary = periods
    .map((p, i) => `${labels[i]}: ${SERIES.map((s) => `${p[s.key]} ${s.label}`).join(', ')}`)
    .join('; ');
  return (
    <ChartFigure
      title={title}
      data={data}
      options={options}
      summary={summary}
      table={{
        headings: ['Period starting', ...SERIES.map((s) => s.label)],
        rows: periods.map((p, i) => ({
          key: p.period,
          cells: [labels[i]!, ...SERIES.map((s) => String(p[s.key]))],
        })),
      }}
    />
  );
}
