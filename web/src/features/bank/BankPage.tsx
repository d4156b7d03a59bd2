// /bank: the teacher's item bank — their own items and those shared with their school or district,
// searched and previewed; an item they may change (theirs; a shared one for an admin, as the API says
// in canEdit) can be edited and deleted, any other is read-only and says whose it is. Items reach an assessment from its edit page ("Add from bank"), as copies.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { BankItemEditDialog } from './BankItemEditDialog';
import { BankSearch } from './BankSearch';
import { useDeleteBankItemMutation, type BankItem } from './bankApi';

export function BankPage() {
  const toast = useToast();
  const [doomed, setDoomed] = useState<BankItem | null>(null);
  const [editing, setEditing] = useState<BankItem | null>(null);
  const [remove, { isLoading }] = useDeleteBankItemMutation();

  const destroy = async () => {
    if (!doomed) return;
    try {
      await remove(doomed.id).unwrap();
      toast({ title: 'Item Deleted', description: 'Assessments that use it keep their copy.' });
    } catch (error) {
      toast({
        title: 'Delete Failed',
        description: serverMessageOr(error, 'Failed to delete the item'),
        variant: 'destructive',
      });
    } finally {
      setDoomed(null);
    }
  };

  return (
    <>
      <h1 className="h2 mb-2">Item Bank</h1>
      <p className="text-body-secondary mb-4">
        Questions you saved, and those your school and district share. Add them to an assessment from its edit page: it
        gets a copy, which later changes to the item never reach. An item is changed or deleted by its author, and a
        shared one also by your district&apos;s admins.
      </p>
      <BankSearch
        idPrefix="bank"
        renderAction={(item) =>
          item.canEdit ? (
            <div className="d-flex flex-column gap-2">
              <Button size="sm" variant="outline-primary" onClick={() => setEditing(item)}>
                Edit
              </Button>
              <Button size="sm" variant="outline-danger" onClick={() => setDoomed(item)}>
                Delete
              </Button>
            </div>
          ) : (
            <p className="small text-body-secondary mb-0 text-end" data-testid="read-only">
              Read only: {item.author.name || 'a colleague'}’s item
            </p>
          )
        }
      />
      {editing && <BankItemEditDialog key={editing.id} item={editing} onClose={() => setEditing(null)} />}
      <Modal show={doomed !== null} onHide={() => setDoomed(null)} aria-labelledby="delete-bank-item">
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="delete-bank-item">Delete this item from the bank?</Modal.Title>
        </Modal.Header>
        <Modal.Body>{doomed?.questionText}</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setDoomed(null)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void destroy()} disabled={isLoading}>
            Delete
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
