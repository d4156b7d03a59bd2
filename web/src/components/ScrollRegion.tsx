import type { ReactNode } from 'react';

/**
 * A wide table's horizontal scroll box that a keyboard can reach (WCAG 2.1.1): Bootstrap's
 * `.table-responsive` without a focusable stop leaves its overflow to mouse users only.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-responsive" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
