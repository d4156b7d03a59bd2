// The teacher's Reopen and Retake for one student's result, each after a confirmation: reopen
// withdraws the result (the student continues with their saved answers and submits again); a
// retake keeps it as an earlier attempt and lets the student take the assessment again.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useGrantRetakeMutation, useReopenResultMutation } from '../../api/generated/endpoints';
import { useToast } from '../../components/toast/useToast';
import { useTranslation } from '../../i18n/react';

type Action = 'reopen' | 'retake';

export function AttemptActions({ resultId, name }: { resultId: string; name: string }) {
  const { t } = useTranslation('results');
  const toast = useToast();
  const [pending, setPending] = useState<Action | null>(null);
  const [retake, retaking] = useGrantRetakeMutation();
  const [reopen, reopening] = useReopenResultMutation();
  const busy = retaking.isLoading || reopening.isLoading;

  const confirm = async () => {
    if (!pending) return;
    try {
      const done = await (pending === 'retake' ? retake(resultId) : reopen(resultId)).unwrap();
      toast({
        title: t(`attempt.${pending}.done`),
        description: t(`attempt.${pending}.doneText`, { name, attempt: done.attempt }),
      });
    } catch (error) {
      toast({
        title: t(`attempt.${pending}.failed`),
        description: serverMessageOr(error, t('common:tryAgain')),
        variant: 'destructive',
      });
    }
    setPending(null);
  };

  return (
    <>
      <div className="d-flex gap-1">
        <Button
          size="sm"
          variant="outline-secondary"
          aria-label={t('attempt.reopen.label', { name })}
          onClick={() => setPending('reopen')}
        >
          {t('attempt.reopen.button')}
        </Button>
        <Button
          size="sm"
          variant="outline-primary"
          aria-label={t('attempt.retake.label', { name })}
          onClick={() => setPending('retake')}
        >
          {t('attempt.retake.button')}
        </Button>
      </div>
      <Modal show={pending !== null} onHide={() => setPending(null)} aria-labelledby={`confirm-${resultId}`}>
        <Modal.Header closeButton>
          <Modal.Title id={`confirm-${resultId}`} as="h2" className="h5">
            {pending && t(`attempt.${pending}.title`)}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{pending && t(`attempt.${pending}.body`, { name })}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setPending(null)}>
            {t('common:cancel')}
          </Button>
          <Button variant="primary" disabled={busy} onClick={() => void confirm()}>
            {pending && t(`attempt.${pending}.confirm`)}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
