// "Save to bank" on a question of the edit page: the teacher chooses who may find it (only them,
// their school, their district; an individual account keeps a private bank) and the question is
// copied to the bank with its assessment's labels.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useAuth } from '../../session/useAuth';
import { VISIBILITY_LABELS, useSaveBankItemMutation, type Visibility } from './bankApi';

export function SaveToBankButton({ questionId, n }: { questionId: string; n: number }) {
  const toast = useToast();
  const individual = useAuth().user?.accountType === 'individual';
  const [open, setOpen] = useState(false);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [save, { isLoading }] = useSaveBankItemMutation();
  const titleId = `save-to-bank-${questionId}`;

  const submit = async () => {
    try {
      await save({ questionId, visibility }).unwrap();
      setOpen(false);
      toast({
        title: 'Saved to Bank',
        description: `Question ${n} is in your item bank (${VISIBILITY_LABELS[visibility]}).`,
      });
    } catch (error) {
      toast({
        title: 'Save Failed',
        description: serverMessageOr(error, 'Failed to save the question to the bank'),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Button size="sm" variant="outline-secondary" onClick={() => setOpen(true)}>
        Save Question {n} to Bank
      </Button>
      <Modal show={open} onHide={() => setOpen(false)} aria-labelledby={titleId}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId}>Save question {n} to the bank</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group>
            <Form.Label as="legend" className="fs-6">
              Who can find it
            </Form.Label>
            {(Object.keys(VISIBILITY_LABELS) as Visibility[]).map((v) => (
              <Form.Check
                key={v}
                type="radio"
                id={`${titleId}-${v}`}
                name={`${titleId}-visibility`}
                label={VISIBILITY_LABELS[v]}
                checked={visibility === v}
                disabled={individual && v !== 'private'}
                onChange={() => setVisibility(v)}
              />
            ))}
            {individual && (
              <Form.Text>An individual account keeps a private bank; school and district accounts can share.</Form.Text>
            )}
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={isLoading}>
            Save to Bank
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
