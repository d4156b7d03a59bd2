// Standards as code chips: the code shows, the statement is the chip's tooltip and its accessible
// description (so it is not only on hover). With onRemove each chip has a remove button.
import { Suspense } from 'react';
import Badge from 'react-bootstrap/Badge';
import { useTranslation } from '../../i18n/react';
import type { StandardRef } from './standardsApi';

interface Props {
  standards: readonly StandardRef[];
  /** Names the list for assistive technology, e.g. "Standards of question 2". */
  label: string;
  onRemove?: (identifier: string) => void;
  disabled?: boolean;
}

export function StandardChips(props: Props) {
  if (props.standards.length === 0) return null;
  // Only the remove buttons have texts (loaded with the standards'): chips without them need none.
  if (!props.onRemove) return <Chips {...props} removeLabel={(code) => code} />;
  return (
    <Suspense fallback={null}>
      <TranslatedChips {...props} />
    </Suspense>
  );
}

function TranslatedChips(props: Props) {
  const { t } = useTranslation('bank');
  return <Chips {...props} removeLabel={(code) => t('standards.chips.remove', { code })} />;
}

function Chips({
  standards,
  label,
  onRemove,
  disabled,
  removeLabel,
}: Props & { removeLabel: (code: string) => string }) {
  return (
    <ul className="list-inline mb-0 d-flex flex-wrap gap-1" aria-label={label}>
      {standards.map((s) => (
        <li key={s.identifier} className="list-inline-item m-0">
          <Badge
            bg="info-subtle"
            text="info-emphasis"
            className="border border-info-subtle d-inline-flex align-items-center gap-1 text-wrap text-break text-start mw-100"
            title={s.statement || s.code}
            data-testid="standard-chip"
          >
            <span>{s.code}</span>
            {s.statement && <span className="visually-hidden">: {s.statement}</span>}
            {onRemove && (
              <button
                type="button"
                className="btn-close btn-close-sm ms-1"
                style={{ fontSize: '0.6rem' }}
                aria-label={removeLabel(s.code)}
                disabled={disabled}
                onClick={() => onRemove(s.identifier)}
              />
            )}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
