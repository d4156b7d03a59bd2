// Asks before submitting (answers cannot change afterwards): lists the questions still unanswered,
// each with a way back to it, or confirms that every question has an answer.
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../i18n/react';

export interface UnansweredQuestion {
  index: number;
  text: string;
}

interface Props {
  show: boolean;
  total: number;
  unanswered: UnansweredQuestion[];
  submitting: boolean;
  /** False while going back to a question: focus goes to that question instead of Submit. */
  restoreFocus: boolean;
  onSubmit: () => void;
  onGoTo: (index: number) => void;
  onCancel: () => void;
  onExited: () => void;
}

export function SubmitConfirmModal({
  show,
  total,
  unanswered,
  submitting,
  restoreFocus,
  onSubmit,
  onGoTo,
  onCancel,
  onExited,
}: Props) {
  const { t } = useTranslation('take');
  const missing = unanswered.length;
  return (
    <Modal
      show={show}
      onHide={submitting ? () => undefined : onCancel}
      onExited={onExited}
      restoreFocus={restoreFocus}
      centered
      aria-labelledby="submit-confirm-title"
    >
      <Modal.Header closeButton={!submitting}>
        <Modal.Title id="submit-confirm-title" as="h2" className="h5">
          {missing > 0 ? t('confirm.someMissingTitle') : t('confirm.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {missing > 0 ? (
          <>
            <p>{t('confirm.missing', { missing, count: total })}</p>
            <ul className="list-unstyled mb-0" aria-label={t('confirm.unanswered')}>
              {unanswered.map((q) => (
                <li key={q.index} className="d-flex align-items-center justify-content-between gap-2 border-top py-2">
                  <span>
                    <span className="fw-semibold">{t('questionN', { n: q.index + 1 })}</span> {q.text}
                  </span>
                  <Button
                    size="sm"
                    variant="outline-primary"
                    className="text-nowrap"
                    onClick={() => onGoTo(q.index)}
                    disabled={submitting}
                  >
                    {t('confirm.goTo', { n: q.index + 1 })}
                  </Button>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="mb-0">{t('confirm.allAnswered', { count: total })}</p>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={submitting}>
          {t('confirm.keepWorking')}
        </Button>
        <Button variant="success" onClick={onSubmit} disabled={submitting}>
          {submitting ? t('submitting') : missing > 0 ? t('confirm.submitAnyway') : t('confirm.submitNow')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
