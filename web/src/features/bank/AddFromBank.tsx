// "Add from bank" on the edit page: search the bank, tick items, and add them at the end of the
// assessment as copies (later changes to a bank item never reach it). `room`: how many questions
// the assessment may still take.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { BankSearch } from './BankSearch';
import { useAddFromBankMutation } from './bankApi';

export function AddFromBank({ assessmentId, room }: { assessmentId: string; room: number }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [add, { isLoading }] = useAddFromBankMutation();
  const close = () => {
    setOpen(false);
    setChosen([]);
  };
  const toggle = (id: string) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));

  const submit = async () => {
    try {
      const added = await add({ id: assessmentId, body: { itemIds: chosen } }).unwrap();
      close();
      toast({
        title: 'Questions Added',
        description: `${added.length} question${added.length === 1 ? '' : 's'} added from the bank.`,
      });
    } catch (error) {
      toast({
        title: 'Add Failed',
        description: serverMessageOr(error, 'Failed to add the items'),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Button variant="outline-primary" onClick={() => setOpen(true)} disabled={room <= 0}>
        Add from Bank
      </Button>
      <Modal show={open} onHide={close} size="xl" aria-labelledby="add-from-bank">
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="add-from-bank">Add questions from the bank</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <BankSearch
            idPrefix="add-from-bank"
            renderAction={(item) => (
              <Form.Check
                id={`pick-${item.id}`}
                aria-label={`Choose: ${item.questionText}`}
                checked={chosen.includes(item.id)}
                disabled={!chosen.includes(item.id) && chosen.length >= room}
                onChange={() => toggle(item.id)}
              />
            )}
          />
        </Modal.Body>
        <Modal.Footer>
          <span className="me-auto small text-body-secondary" aria-live="polite">
            {chosen.length} chosen{chosen.length >= room ? ` (room for ${room} more)` : ''}
          </span>
          <Button variant="outline-secondary" onClick={close}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={chosen.length === 0 || isLoading}>
            Add {chosen.length} to Assessment
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
