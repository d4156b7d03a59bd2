// What a student's accommodations change on the whole page: large text and high contrast (classes
// on <html>, theme.css "Accommodations"), and the line guide (a reading band over the page).
import { useLayoutEffect, useRef } from 'react';
import type { Accommodations } from './useMyAccommodations';

const BAND_PX = 56;

/**
 * A horizontal band across the page that follows the focused element (keyboard) and the pointer,
 * to keep the eye on one line. Decorative for assistive technology; never in the way of a click.
 */
export function LineGuide() {
  const band = useRef<HTMLDivElement>(null);
  // Listening from the first paint on (a focus moved at once is followed too).
  useLayoutEffect(() => {
    const moveTo = (y: number) => {
      if (band.current) band.current.style.top = `${Math.round(y - BAND_PX / 2)}px`;
    };
    const onFocus = (e: FocusEvent) => {
      if (!(e.target instanceof Element)) return;
      const r = e.target.getBoundingClientRect();
      moveTo(r.top + r.height / 2);
    };
    const onPointer = (e: PointerEvent) => moveTo(e.clientY);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('pointermove', onPointer);
    return () => {
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('pointermove', onPointer);
    };
  }, []);
  return <div ref={band} className="acc-line-guide" aria-hidden="true" data-testid="line-guide" />;
}

/** Sets the page-wide accommodations while mounted. */
export function PageAccommodations({ accommodations }: { accommodations: Accommodations }) {
  const { largeText, highContrast, lineGuide } = accommodations;
  // Before the page is painted: no flash of small or low-contrast text.
  useLayoutEffect(() => {
    const html = document.documentElement.classList;
    html.toggle('acc-large-text', largeText);
    html.toggle('acc-high-contrast', highContrast);
    return () => {
      html.remove('acc-large-text', 'acc-high-contrast');
    };
  }, [largeText, highContrast]);
  return lineGuide ? <LineGuide /> : null;
}
