// "Save to bank" on a question of the edit page: the teacher chooses who may find it (only them,
// their school, their district; an individual account keeps a private bank) and the question is
// copied to the bank with its assessment's labels.
import { Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useTranslation } from '../../i18n/react';
import { useAuth } from '../../session/useAuth';
import { VISIBILITIES, useSaveBankItemMutation, type Visibility } from './bankApi';

type Props = { questionId: string; n: number };

/** Its texts load with the bank's (the edit page's own may already be there): nothing shows until then. */
export function SaveToBankButton(props: Props) {
  return (
    <Suspense fallback={null}>
      <SaveToBank {...props} />
    </Suspense>
  );
}

function SaveToBank({ questionId, n }: Props) {
  const { t } = useTranslation('bank');
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
        title: t('bank.save.saved'),
        description: t('bank.save.savedText', { n, visibility: t(`bank.visibility.${visibility}`) }),
      });
    } catch (error) {
      toast({
        title: t('bank.save.failed'),
        description: serverMessageOr(error, t('bank.save.failedText')),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Button size="sm" variant="outline-secondary" onClick={() => setOpen(true)}>
        {t('bank.save.open', { n })}
      </Button>
      <Modal show={open} onHide={() => setOpen(false)} aria-labelledby={titleId}>
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={titleId}>{t('bank.save.title', { n })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group>
            <Form.Label as="legend" className="fs-6">
              {t('bank.whoCanFind')}
            </Form.Label>
            {VISIBILITIES.map((v) => (
              <Form.Check
                key={v}
                type="radio"
                id={`${titleId}-${v}`}
                name={`${titleId}-visibility`}
                label={t(`bank.visibility.${v}`)}
                checked={visibility === v}
                disabled={individual && v !== 'private'}
                onChange={() => setVisibility(v)}
              />
            ))}
            {individual && <Form.Text>{t('bank.individual')}</Form.Text>}
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setOpen(false)}>
            {t('common:cancel')}
          </Button>
          <Button onClick={() => void submit()} disabled={isLoading}>
            {t('bank.save.submit')}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
