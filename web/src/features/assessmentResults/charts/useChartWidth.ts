// The width a chart is drawn at, in CSS pixels: its box's, measured. Drawing in the box's own pixels
// (instead of scaling a fixed 640-unit drawing down to a narrow card or a phone) keeps the labels'
// 12 units at 12 px on every screen (scaled down, labels were 7 px in the half-width cards).
import { useLayoutEffect, useRef, useState } from 'react';

/** Width drawn at before the box is measured (and where nothing measures: server, tests). */
export const DEFAULT_CHART_WIDTH = 640;
/** Narrower boxes still draw at this width (and scroll): the axis and a few bars need the room. */
export const MIN_CHART_WIDTH = 280;

export function useChartWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(DEFAULT_CHART_WIDTH);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      const measured = Math.floor(box.getBoundingClientRect().width);
      if (measured > 0) setWidth(Math.max(MIN_CHART_WIDTH, measured));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
