import { describe, expect, it } from 'vitest';
import { barLayout, niceTicks } from './barLayout';

describe('niceTicks', () => {
  it('when a top is fixed, then the ticks run from 0 to it in round steps', () => {
    expect(niceTicks(37, 100)).toEqual([0, 20, 40, 60, 80, 100]);
  });

  it('when counts are small, then the steps are whole numbers and the top covers the largest', () => {
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(42)).toEqual([0, 10, 20, 30, 40, 50]);
  });

  it('when there is no data, then the axis still runs 0 to 1', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});

describe('barLayout', () => {
  const box = { width: 640, height: 260 };

  it('when one series is laid out, then bar heights are proportional and each bar keeps its colour and text', () => {
    const { bars, plot } = barLayout({
      ...box,
      categories: ['Q1', 'Q2'],
      series: [{ label: 'Share', color: '#000', colors: ['#111', '#222'], values: [25, 50], displays: ['25%', '50%'] }],
      max: 100,
    });
    const full = plot.bottom - plot.top;
    expect(bars.map((b) => b.segments[0]!.height)).toEqual([full / 4, full / 2]);
    expect(bars.map((b) => b.segments[0]!.color)).toEqual(['#111', '#222']);
    expect(bars.map((b) => [b.tooltip, b.valueLabel, b.categoryLabel])).toEqual([
      ['Q1: 25%', '25%', 'Q1'],
      ['Q2: 50%', '50%', 'Q2'],
    ]);
    expect(bars[1]!.x).toBeGreaterThan(bars[0]!.x + bars[0]!.width);
  });

  it('when series are stacked, then segments sit on each other and the label is the total', () => {
    const { bars, plot } = barLayout({
      ...box,
      categories: ['Mar 4'],
      series: [
        { label: 'Above', color: 'g', values: [3] },
        { label: 'Below', color: 'r', values: [1] },
      ],
    });
    const [above, below] = bars[0]!.segments;
    expect(above!.y + above!.height).toBeCloseTo(plot.bottom);
    expect(below!.y + below!.height).toBeCloseTo(above!.y);
    expect(bars[0]!.valueLabel).toBe('4');
    expect(bars[0]!.tooltip).toBe('Mar 4: 3 Above, 1 Below');
  });

  it('when there are too many categories to label, then labels thin out and value labels are left to the tooltip', () => {
    const categories = Array.from({ length: 40 }, (_, i) => `Q${i + 1}`);
    const { bars } = barLayout({
      ...box,
      categories,
      series: [{ label: 'n', color: 'b', values: categories.map(() => 1) }],
    });
    expect(bars.every((b) => b.valueLabel === undefined)).toBe(true);
    const labelled = bars.filter((b) => b.categoryLabel !== undefined).length;
    expect(labelled).toBeGreaterThan(5);
    expect(labelled).toBeLessThan(40);
  });
});
