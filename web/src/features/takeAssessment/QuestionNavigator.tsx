// Buttons 1..N to move between questions, each saying whether it is answered (filled, with a
// check, and in its name: "Question 3, answered") and which one is open (aria-current).
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../i18n/react';

interface Props {
  total: number;
  current: number;
  /** Per question (by index): has an answer. */
  answered: boolean[];
  onGo: (index: number) => void;
}

export function QuestionNavigator({ total, current, answered, onGo }: Props) {
  const { t } = useTranslation('take');
  return (
    <nav aria-label={t('nav.label')} className="mb-3">
      <ol className="list-unstyled d-flex flex-wrap gap-2 mb-0">
        {Array.from({ length: total }, (_, i) => {
          const done = answered[i] ?? false;
          const isCurrent = i === current;
          return (
            <li key={i}>
              <Button
                size="sm"
                variant={done ? 'primary' : 'outline-secondary'}
                className={isCurrent ? 'fw-bold' : undefined}
                // The open question is ringed in the text colour, which contrasts with the page.
                style={{
                  minWidth: '2.75rem',
                  ...(isCurrent ? { outline: '3px solid var(--bs-body-color)', outlineOffset: 2 } : {}),
                }}
                aria-label={t(done ? 'nav.answered' : 'nav.notAnswered', { n: i + 1 })}
                aria-current={isCurrent ? 'step' : undefined}
                onClick={() => onGo(i)}
              >
                {i + 1}
                {done && <span aria-hidden="true"> ✓</span>}
              </Button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
