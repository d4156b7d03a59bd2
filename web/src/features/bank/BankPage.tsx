// /bank: the teacher's item bank — their own items and those shared with their school or district,
// searched and previewed; an item they may change (theirs; a shared one for an admin, as the API says
// in canEdit) can be edited and deleted, any other is read-only and says whose it is. Items reach an assessment from its edit page ("Add from bank"), as copies.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useTranslation } from '../../i18n/react';
import { BankItemEditDialog } from './BankItemEditDialog';
import { BankSearch } from './BankSearch';
import { useDeleteBankItemMutation, type BankItem } from './bankApi';

export function BankPage() {
  const { t } = useTranslation('bank');
  const toast = useToast();
  const [doomed, setDoomed] = useState<BankItem | null>(null);
  const [editing, setEditing] = useState<BankItem | null>(null);
  const [remove, { isLoading }] = useDeleteBankItemMutation();

  const destroy = async () => {
    if (!doomed) return;
    try {
      await remove(doomed.id).unwrap();
      toast({ title: t('bank.page.deleted'), description: t('bank.keepCopy') });
    } catch (error) {
      toast({
        title: t('bank.page.deleteFailed'),
        description: serverMessageOr(error, t('bank.page.deleteFailedText')),
        variant: 'destructive',
      });
    } finally {
      setDoomed(null);
    }
  };

  return (
    <>
      <h1 className="h2 mb-2">{t('bank.page.title')}</h1>
      <p className="text-body-secondary mb-4">{t('bank.page.intro')}</p>
      <BankSearch
        idPrefix="bank"
        renderAction={(item) =>
          item.canEdit ? (
            <div className="d-flex flex-column gap-2">
              <Button size="sm" variant="outline-primary" onClick={() => setEditing(item)}>
                {t('bank.page.edit')}
              </Button>
              <Button size="sm" variant="outline-danger" onClick={() => setDoomed(item)}>
                {t('bank.page.delete')}
              </Button>
            </div>
          ) : (
            <p className="small text-body-secondary mb-0 text-end" data-testid="read-only">
              {t('bank.page.readOnly', { name: item.author.name || t('bank.colleague') })}
            </p>
          )
        }
      />
      {editing && <BankItemEditDialog key={editing.id} item={editing} onClose={() => setEditing(null)} />}
      <Modal show={doomed !== null} onHide={() => setDoomed(null)} aria-labelledby="delete-bank-item">
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id="delete-bank-item">{t('bank.page.confirmTitle')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>{doomed?.questionText}</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setDoomed(null)}>
            {t('common:cancel')}
          </Button>
          <Button variant="danger" onClick={() => void destroy()} disabled={isLoading}>
            {t('bank.page.delete')}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
