// One bar chart as a figure: the canvas is named by its figures (aria-label), and a data table
// under "Show data" carries the same numbers as text, so neither sight nor colour is needed.
import { useId } from 'react';
import { Bar } from 'react-chartjs-2';
import type { ChartData, ChartOptions } from 'chart.js';
import './registerBarChart';

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
  const captionId = useId();
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
    <figure className="mb-0" aria-labelledby={captionId}>
      <figcaption id={captionId} className="fw-semibold mb-2">
        {title}
      </figcaption>
      <div style={{ position: 'relative', height }}>
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
              <th scope="col">{xTitle}</th>
              <th scope="col">{yTitle}</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.label}>
                <th scope="row" className="fw-normal">
                  {b.label}
                </th>
                <td>{b.display}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
