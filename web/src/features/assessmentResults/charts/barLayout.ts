// Where the bars, ticks and labels of a bar chart go, in SVG user units: a pure function, so the
// drawing (ChartFigure) stays markup and the arithmetic is unit-tested.

export interface ChartSeries {
  label: string;
  color: string;
  /** A colour per category instead (a single series whose bars differ, e.g. by level). */
  colors?: string[];
  /** One value per category. */
  values: number[];
  /** The values as the tooltip and value labels show them (e.g. '60%', '3 (25%)'); default: the number. */
  displays?: string[];
}

export interface BarLayoutInput {
  categories: string[];
  series: ChartSeries[];
  /** Fixed top of the value axis; otherwise a round number at or above the largest bar. */
  max?: number;
  width: number;
  height: number;
}

export interface LaidOutBar {
  key: string;
  x: number;
  width: number;
  /** y of the bar's top (its tallest point). */
  top: number;
  segments: { key: string; y: number; height: number; color: string }[];
  tooltip: string;
  /** Above the bar when there is room for it: the value (one series) or the total (stacked). */
  valueLabel?: string;
  /** Under the bar, thinned out when the categories are too many to label each. */
  categoryLabel?: string;
}

export interface BarLayout {
  plot: { left: number; right: number; top: number; bottom: number };
  ticks: { value: number; y: number }[];
  bars: LaidOutBar[];
}

const MARGIN = { left: 60, right: 8, top: 20, bottom: 44 };
/** Below this many units per category the value labels would overlap. */
const MIN_BAND_FOR_VALUES = 40;
/** A category label needs about this much room. */
const MIN_BAND_FOR_LABEL = 34;

/** Tick values from 0 to a round top (steps of 1, 2 or 5 × 10ⁿ, whole numbers), about five of them. */
export function niceTicks(largest: number, fixedMax?: number): number[] {
  const top = fixedMax ?? Math.max(largest, 1);
  const rough = top / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude);
  const end = fixedMax ?? Math.ceil(top / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= end + step / 1e6; value += step) ticks.push(Math.round(value * 1e6) / 1e6);
  if (ticks[ticks.length - 1] !== end) ticks.push(end);
  return ticks;
}

export function barLayout({ categories, series, max, width, height }: BarLayoutInput): BarLayout {
  const plot = { left: MARGIN.left, right: width - MARGIN.right, top: MARGIN.top, bottom: height - MARGIN.bottom };
  const totals = categories.map((_, i) => series.reduce((sum, s) => sum + Math.max(0, s.values[i] ?? 0), 0));
  const ticks = niceTicks(Math.max(0, ...totals), max);
  const axisTop = ticks[ticks.length - 1]!;
  const yOf = (value: number) => plot.bottom - (Math.min(value, axisTop) / axisTop) * (plot.bottom - plot.top);

  const band = categories.length ? (plot.right - plot.left) / categories.length : 0;
  const labelEvery = Math.max(1, Math.ceil(MIN_BAND_FOR_LABEL / Math.max(band, 1)));
  const stacked = series.length > 1;
  const display = (s: ChartSeries, i: number) => s.displays?.[i] ?? String(s.values[i] ?? 0);

  const bars = categories.map((category, i): LaidOutBar => {
    let base = 0;
    const segments = series.map((s) => {
      const value = Math.max(0, s.values[i] ?? 0);
      const y = yOf(base + value);
      const segment = { key: s.label, y, height: yOf(base) - y, color: s.colors?.[i] ?? s.color };
      base += value;
      return segment;
    });
    const tooltip = stacked
      ? `${category}: ${series.map((s) => `${display(s, i)} ${s.label}`).join(', ')}`
      : `${category}: ${display(series[0]!, i)}`;
    return {
      key: `${i}-${category}`,
      x: plot.left + band * i + band * 0.2,
      width: band * 0.6,
      top: yOf(totals[i]!),
      segments,
      tooltip,
      valueLabel: band >= MIN_BAND_FOR_VALUES ? (stacked ? String(totals[i]) : display(series[0]!, i)) : undefined,
      categoryLabel: i % labelEvery === 0 ? category : undefined,
    };
  });

  return { plot, ticks: ticks.map((value) => ({ value, y: yOf(value) })), bars };
}
