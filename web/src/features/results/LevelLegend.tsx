// The legend of the level colours (the results grid and the mastery heatmap): a swatch and the
// level's name for each band; a screen may add its own items after them.
import type { ReactNode } from 'react';
import type { LevelLabel } from './levels';

const LEGEND: { label: LevelLabel; variant: string }[] = [
  { label: 'At Standard', variant: 'warning' },
  { label: 'Above Standard', variant: 'success' },
  { label: 'Below Standard', variant: 'danger' },
];

export function LevelLegend({ children }: { children?: ReactNode }) {
  return (
    <ul className="list-inline small mb-3" aria-label="Legend">
      {LEGEND.map(({ label, variant }) => (
        <li key={label} className="list-inline-item me-3">
          <span
            className={`d-inline-block rounded border border-${variant} bg-${variant}-subtle align-middle me-1`}
            style={{ width: 14, height: 14 }}
            aria-hidden="true"
          />
          {label}
        </li>
      ))}
      {children}
    </ul>
  );
}
