// Edit Class modal: name, subject and period required; a failure shows the server's message.
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { ClassForm } from './ClassForm';
import { useUpdateClassMutation, type ClassItem } from './classesApi';
import { useTranslation } from '../../i18n/react';

interface EditClassModalProps {
  cls: ClassItem | null;
  onHide: () => void;
}

export function EditClassModal({ cls, onHide }: EditClassModalProps) {
  const [updateClass, { isLoading }] = useUpdateClassMutation();
  const toast = useToast();
  const { t } = useTranslation('teacher');

  return (
    <Modal show={cls !== null} onHide={onHide} centered aria-labelledby="edit-class-title">
      <Modal.Header closeButton>
        <Modal.Title id="edit-class-title" as="h2" className="h5">
          {t('classes.edit')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {cls && (
          <ClassForm
            key={cls.id}
            variant="full"
            idPrefix="edit-class"
            defaultValues={{ name: cls.name, subject: cls.subject, period: cls.period ?? '' }}
            submitLabel={t('classes.save')}
            pendingLabel={t('classes.saving')}
            pending={isLoading}
            onCancel={onHide}
            onSubmit={async (body) => {
              try {
                await updateClass({ id: cls.id, body }).unwrap();
                toast({ title: t('common:success'), description: t('classes.updated') });
                onHide();
              } catch (error) {
                toast({
                  title: t('common:toast.error'),
                  description: serverMessageOr(error, t('classes.updateFailed')),
                  variant: 'destructive',
                });
              }
            }}
          />
        )}
      </Modal.Body>
    </Modal>
  );
}
