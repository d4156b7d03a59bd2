// "Add from bank" on the edit page: search the bank, tick items, and add them at the end of the
// assessment as copies (later changes to a bank item never reach it). `room`: how many questions
// the assessment may still take.
import { Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useTranslation } from '../../i18n/react';
import { BankSearch } from './BankSearch';
import { useAddFromBankMutation } from './bankApi';

type Props = { assessmentId: string; room: number };

/** Its texts load with the bank's (the edit page's own may already be there): nothing shows until then. */
export function AddFromBank(props: Props) {
  return (
    <Suspense fallback={null}>
      <AddFromBankButton {...props} />
    </Suspense>
  );
}

function AddFromBankButton({ assessmentId, room }: Props) {
  const { t } = useTranslation('bank');
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
        title: t('bank.add.added'),
        description: t('bank.add.addedText', { count: added.length }),
      });
    } catch (error) {
      toast({
        title: t('bank.add.failed'),
        description: serverMessageOr(error, t('bank.add.failedText')),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Button variant="outline-primary" onClick={() => setOpen(true)} disabled={room <= 0}>
        {t('bank.add.open')}
      </Button>
      <Modal show={open} onHide={close} size="xl" aria-labelledby="add-from-bank">
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id="add-from-bank">{t('bank.add.title')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <BankSearch
            idPrefix="add-from-bank"
            renderAction={(item) => (
              <Form.Check
                id={`pick-${item.id}`}
                aria-label={t('bank.add.choose', { question: item.questionText })}
                checked={chosen.includes(item.id)}
                disabled={!chosen.includes(item.id) && chosen.length >= room}
                onChange={() => toggle(item.id)}
              />
            )}
          />
        </Modal.Body>
        <Modal.Footer>
          <span className="me-auto small text-body-secondary" aria-live="polite">
            {chosen.length >= room
              ? t('bank.add.chosenFull', { count: chosen.length, room })
              : t('bank.add.chosen', { count: chosen.length })}
          </span>
          <Button variant="outline-secondary" onClick={close}>
            {t('common:cancel')}
          </Button>
          <Button onClick={() => void submit()} disabled={chosen.length === 0 || isLoading}>
            {t('bank.add.submit', { count: chosen.length })}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
