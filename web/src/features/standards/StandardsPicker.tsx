// The standards picker (create assessment, edit question): a type-ahead over the catalogue
// (GET /api/standards/search, by code prefix or words of the statement), keyboard usable as an ARIA
// combobox (↓/↑ move, Enter chooses, Escape closes), the chosen ones as removable chips, at most
// MAX_STANDARDS (the API's limit).
import { Suspense, useEffect, useId, useState, type KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { serverMessageOr } from '../../api/apiError';
import { useTranslation } from '../../i18n/react';
import { StandardChips } from './StandardChips';
import { useSearchStandardsQuery, type StandardRef } from './standardsApi';

export const MAX_STANDARDS = 10;
/** The wait after the last key before searching. */
export const TYPE_AHEAD_MS = 250;
const RESULTS = 10;

interface Props {
  id: string;
  value: readonly StandardRef[];
  onChange: (next: StandardRef[]) => void;
  /** Its label ("Standards" in the interface's language when none is given). */
  label?: string;
  max?: number;
  disabled?: boolean;
}

/** Its texts load with the standards' (the form around it may show first): nothing shows until then. */
export function StandardsPicker(props: Props) {
  return (
    <Suspense fallback={null}>
      <Picker {...props} />
    </Suspense>
  );
}

function Picker({ id, value, onChange, label: given, max = MAX_STANDARDS, disabled }: Props) {
  const { t } = useTranslation('bank');
  const label = given ?? t('standards.picker.label');
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const full = value.length >= max;

  useEffect(() => {
    const q = text.trim();
    const timer = setTimeout(() => setQuery(q), TYPE_AHEAD_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const search = useSearchStandardsQuery({ q: query, limit: RESULTS }, { skip: query === '' });
  const chosen = new Set(value.map((s) => s.identifier));
  const options = query === '' ? [] : (search.data ?? []).filter((s) => !chosen.has(s.identifier));
  const expanded = open && query !== '' && text.trim() !== '';
  const optionId = (i: number) => `${id}-option-${i}`;

  const choose = (index: number) => {
    const item = options[index];
    if (!item || full) return;
    onChange([...value, { identifier: item.identifier, code: item.code, uri: item.uri, statement: item.statement }]);
    setText('');
    setQuery('');
    setActive(0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => (options.length ? (i + 1) % options.length : 0));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (options.length ? (i - 1 + options.length) % options.length : 0));
    } else if (e.key === 'Enter') {
      // Enter in the type-ahead chooses, it never submits the form around it.
      e.preventDefault();
      if (expanded) choose(active);
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };

  const status = !expanded
    ? null
    : search.isFetching && options.length === 0
      ? t('standards.search.searching')
      : search.isError
        ? serverMessageOr(search.error, t('standards.search.failed'))
        : options.length === 0
          ? t('standards.picker.none')
          : null;

  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <div className="mb-2">
        <StandardChips
          standards={value}
          label={given ? t('standards.picker.chosenOf', { label: given.toLowerCase() }) : t('standards.picker.chosen')}
          disabled={disabled}
          onRemove={(identifier) => onChange(value.filter((s) => s.identifier !== identifier))}
        />
      </div>
      <div className="position-relative">
        <Form.Control
          type="text"
          role="combobox"
          autoComplete="off"
          placeholder={full ? '' : t('standards.picker.hint')}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && options[active] ? optionId(active) : undefined}
          aria-describedby={`${id}-hint`}
          value={text}
          disabled={disabled || full}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
          onFocus={() => setOpen(true)}
        />
        <ListGroup
          as="ul"
          id={listId}
          role="listbox"
          aria-label={given ? t('standards.picker.foundOf', { label: given }) : t('standards.search.found')}
          className="position-absolute w-100 shadow-sm overflow-auto"
          style={{ zIndex: 1060, maxHeight: 280 }}
          hidden={!expanded || options.length === 0}
        >
          {expanded &&
            options.map((s, i) => (
              <ListGroup.Item
                as="li"
                key={s.identifier}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                active={i === active}
                className="small"
                style={{ cursor: 'pointer' }}
                // mousedown, not click: the input's blur would close the list first.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(i);
                }}
              >
                <span className="fw-semibold">{s.code}</span> {s.statement}
                <span className="d-block">{s.frameworkTitle}</span>
              </ListGroup.Item>
            ))}
        </ListGroup>
      </div>
      <Form.Text id={`${id}-hint`} className="d-block" aria-live="polite">
        {full ? t('standards.picker.full', { count: max }) : (status ?? t('standards.picker.upTo', { count: max }))}
        {search.isFetching && expanded && options.length > 0 && (
          <Spinner animation="border" size="sm" className="ms-2" aria-hidden="true" />
        )}
      </Form.Text>
    </Form.Group>
  );
}
