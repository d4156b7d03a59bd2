// A bar chart as a figure: a caption, the chart drawn as SVG (an image named by its figures), a
// legend when there are several series, and under "Show data" a table with the same numbers as
// text, so neither sight nor colour is needed. Hand-drawn instead of chart.js (about 55 KB gzip of
// the results and reports pages, against their budgets in routes/routeTable.ts): bars, a value
// axis and category labels are all these charts show. Text takes the page's colour (currentColor)
// and bars the theme's chart colours (chartColors.ts), so the dark theme works too. Drawn at the
// box's own width in pixels (useChartWidth), so that its 12-unit labels are 12 px on a phone as on
// a desktop.
import { useId } from 'react';
import { barLayout, type ChartSeries } from './barLayout';
import { useChartWidth } from './useChartWidth';
import { useTranslation } from '../../../i18n/react';

interface ChartFigureProps {
  title: string;
  /** One label per bar position (the category axis). */
  categories: string[];
  /** One series, or several stacked on each other (bottom first). */
  series: ChartSeries[];
  xTitle: string;
  yTitle: string;
  /** Fixed top of the value axis (100 for percentages); counts scale to the data. */
  max?: number;
  /** Appended to the value axis ticks, e.g. '%'. */
  unit?: string;
  /** The figures in words, for the image's accessible name. */
  summary: string;
  /** The data table: its column headings, then one row per category (first cell = row heading). */
  table: { headings: string[]; rows: { key: string; cells: string[] }[] };
  height?: number;
}

/** The labels' size, in px (the chart is drawn one unit to one pixel). */
export const CHART_FONT_SIZE = 12;

export function ChartFigure(props: ChartFigureProps) {
  const { title, categories, series, xTitle, yTitle, max, unit = '', summary, table, height = 260 } = props;
  const { t } = useTranslation('results');
  const captionId = useId();
  const { ref, width } = useChartWidth<HTMLDivElement>();
  const layout = barLayout({ categories, series, max, width, height });
  const { plot } = layout;

  return (
    <figure className="mb-0" aria-labelledby={captionId}>
      <figcaption id={captionId} className="fw-semibold mb-2">
        {title}
      </figcaption>
      <div ref={ref} className="overflow-x-auto">
        <svg
          role="img"
          aria-label={`${title}. ${summary || t('charts.noData')}`}
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
          className="d-block"
          fontSize={CHART_FONT_SIZE}
          fill="currentColor"
        >
          {layout.ticks.map((tick) => (
            <g key={tick.value}>
              <line x1={plot.left} x2={plot.right} y1={tick.y} y2={tick.y} stroke="currentColor" strokeOpacity={0.15} />
              <text x={plot.left - 6} y={tick.y} textAnchor="end" dominantBaseline="middle">
                {`${tick.value}${unit}`}
              </text>
            </g>
          ))}
          <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} stroke="currentColor" />
          {layout.bars.map((bar) => (
            <g key={bar.key} data-testid="chart-bar">
              <title>{bar.tooltip}</title>
              {bar.segments.map((segment) => (
                <rect
                  key={segment.key}
                  x={bar.x}
                  y={segment.y}
                  width={bar.width}
                  height={segment.height}
                  fill={segment.color}
                  style={{ fill: segment.color }}
                  stroke="currentColor"
                  strokeOpacity={0.4}
                />
              ))}
              {bar.valueLabel !== undefined && (
                <text x={bar.x + bar.width / 2} y={bar.top - 4} textAnchor="middle">
                  {bar.valueLabel}
                </text>
              )}
              {bar.categoryLabel !== undefined && (
                <text x={bar.x + bar.width / 2} y={plot.bottom + 16} textAnchor="middle">
                  {bar.categoryLabel}
                </text>
              )}
            </g>
          ))}
          <text x={(plot.left + plot.right) / 2} y={height - 6} textAnchor="middle" fontWeight="bold">
            {xTitle}
          </text>
          <text
            transform={`translate(14 ${(plot.top + plot.bottom) / 2}) rotate(-90)`}
            textAnchor="middle"
            fontWeight="bold"
          >
            {yTitle}
          </text>
        </svg>
      </div>
      {series.length > 1 && (
        <ul className="list-inline small text-center mb-0">
          {series.map((s) => (
            <li key={s.label} className="list-inline-item">
              <svg width="12" height="12" className="me-1" aria-hidden="true">
                <rect
                  width="12"
                  height="12"
                  fill={s.color}
                  style={{ fill: s.color }}
                  stroke="currentColor"
                  strokeOpacity={0.4}
                />
              </svg>
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <details className="small mt-2">
        <summary>{t('charts.showData')}</summary>
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
