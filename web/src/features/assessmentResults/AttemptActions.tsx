// The teacher's Reopen and Retake for one student's result, each after a confirmation: reopen
// withdraws the result (the student continues with their saved answers and submits again); a
// retake keeps it as an earlier attempt and lets the student take the assessment again.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useGrantRetakeMutation, useReopenResultMutation } from '../../api/generated/endpoints';
import { useToast } from '../../components/toast/useToast';

type Action = 'reopen' | 'retake';

const TEXT: Record<Action, { title: string; body: (name: string) => string; confirm: string }> = {
  reopen: {
    title: 'Reopen this attempt?',
    body: (name) =>
      `${name}'s result is withdrawn and they continue this attempt with their saved answers, then submit again.`,
    confirm: 'Reopen',
  },
  retake: {
    title: 'Grant a retake?',
    body: (name) =>
      `${name} takes the assessment again from the start. This attempt is kept; which attempt counts follows the assessment's setting.`,
    confirm: 'Grant Retake',
  },
};

export function AttemptActions({ resultId, name }: { resultId: string; name: string }) {
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
        title: pending === 'retake' ? 'Retake Granted' : 'Attempt Reopened',
        description:
          pending === 'retake'
            ? `${name} can take it again (attempt ${done.attempt}).`
            : `${name} can continue attempt ${done.attempt} and submit again.`,
      });
    } catch (error) {
      toast({
        title: pending === 'retake' ? 'Retake Not Granted' : 'Not Reopened',
        description: serverMessageOr(error, 'Please try again'),
        variant: 'destructive',
      });
    }
    setPending(null);
  };

  const text = pending && TEXT[pending];
  return (
    <>
      <div className="d-flex gap-1">
        <Button
          size="sm"
          variant="outline-secondary"
          aria-label={`Reopen ${name}'s attempt`}
          onClick={() => setPending('reopen')}
        >
          Reopen
        </Button>
        <Button
          size="sm"
          variant="outline-primary"
          aria-label={`Retake for ${name}`}
          onClick={() => setPending('retake')}
        >
          Retake
        </Button>
      </div>
      <Modal show={pending !== null} onHide={() => setPending(null)} aria-labelledby={`confirm-${resultId}`}>
        <Modal.Header closeButton>
          <Modal.Title id={`confirm-${resultId}`} as="h2" className="h5">
            {text?.title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{text?.body(name)}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setPending(null)}>
            Cancel
          </Button>
          <Button variant="primary" disabled={busy} onClick={() => void confirm()}>
            {text?.confirm}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
