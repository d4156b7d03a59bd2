// Levels over time: results per period stacked by band (80/60), with a legend naming the bands and
// the same counts as a table, so colour is never the only carrier.
import { useId } from 'react';
import { Bar } from 'react-chartjs-2';
import { Chart, Legend, type ChartData, type ChartOptions } from 'chart.js';
import './registerBarChart';

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
  const captionId = useId();
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
    <figure className="mb-0" aria-labelledby={captionId}>
      <figcaption id={captionId} className="fw-semibold mb-2">
        {title}
      </figcaption>
      <div style={{ position: 'relative', height: 260 }}>
        <Bar
          data={data}
          options={options}
          role="img"
          aria-label={`${title}. ${summary || 'No data'}`}
          fallbackContent={<p>{summary}</p>}
        />
      </div>
      <details className="small mt-2">
        <summary>Show data</summary>
        <table className="table table-sm mt-2 mb-0">
          <thead>
            <tr>
              <th scope="col">Period starting</th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {periods.map((p, i) => (
              <tr key={p.period}>
                <th scope="row" className="fw-normal">
                  {labels[i]}
                </th>
                {SERIES.map((s) => (
                  <td key={s.key}>{p[s.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
