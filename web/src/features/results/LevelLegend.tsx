// The legend of the level colours (the results grid and the mastery heatmap): a swatch and the
// level's name for each band; a screen may add its own items after them.
import type { ReactNode } from 'react';
import type { LevelLabel } from './levels';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';

const LEGEND: { label: LevelLabel; variant: string }[] = [
  { label: 'At Standard', variant: 'warning' },
  { label: 'Above Standard', variant: 'success' },
  { label: 'Below Standard', variant: 'danger' },
];

export function LevelLegend({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('results');
  const levelName = useLabel();
  return (
    <ul className="list-inline small mb-3" aria-label={t('grid.legend')}>
      {LEGEND.map(({ label, variant }) => (
        <li key={label} className="list-inline-item me-3">
          <span
            className={`d-inline-block rounded border border-${variant} bg-${variant}-subtle align-middle me-1`}
            style={{ width: 14, height: 14 }}
            aria-hidden="true"
          />
          {levelName(label)}
        </li>
      ))}
      {children}
    </ul>
  );
}
