// A bar chart as a figure: a caption, the canvas named by its figures (aria-label), and under
// "Show data" a table with the same numbers as text, so neither sight nor colour is needed.
import { useId } from 'react';
import { Bar } from 'react-chartjs-2';
import type { ChartData, ChartOptions } from 'chart.js';
import './registerBarChart';

interface ChartFigureProps {
  title: string;
  data: ChartData<'bar', number[], string>;
  options: ChartOptions<'bar'>;
  /** The figures in words, for the canvas's accessible name. */
  summary: string;
  /** The data table: its column headings, then one row per category (first cell = row heading). */
  table: { headings: string[]; rows: { key: string; cells: string[] }[] };
  height?: number;
}

export function ChartFigure({ title, data, options, summary, table, height = 260 }: ChartFigureProps) {
  const captionId = useId();
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
              {table.headings.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map(({ key, cells: [heading, ...values] }) => (
              <tr key={key}>
                <th scope="row" className="fw-normal">
                  {heading}
                </th>
                {values.map((v, i) => (
                  <td key={i}>{v}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
