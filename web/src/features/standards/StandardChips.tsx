// Standards as code chips: the code shows, the statement is the chip's tooltip and its accessible
// description (so it is not only on hover). With onRemove each chip has a remove button.
import Badge from 'react-bootstrap/Badge';
import type { StandardRef } from './standardsApi';

interface Props {
  standards: readonly StandardRef[];
  /** Names the list for assistive technology, e.g. "Standards of question 2". */
  label: string;
  onRemove?: (identifier: string) => void;
  disabled?: boolean;
}

export function StandardChips({ standards, label, onRemove, disabled }: Props) {
  if (standards.length === 0) return null;
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
                aria-label={`Remove ${s.code}`}
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
