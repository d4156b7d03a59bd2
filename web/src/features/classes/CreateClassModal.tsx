// Create Class modal. The dashboard variant picks the subject from 7 options and
// answers any failure with a fixed text; the classes page variant shows the server message.
import Modal from 'react-bootstrap/Modal';
import { planLimitMessage, serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { ClassForm } from './ClassForm';
import type { ClassFormVariant } from './classSchemas';
import { useCreateClassMutation, type ClassItem } from './classesApi';
import { useTranslation } from '../../i18n/react';

interface CreateClassModalProps {
  show: boolean;
  variant: ClassFormVariant;
  onHide: () => void;
  onCreated?: (created: ClassItem) => void;
}

export function CreateClassModal({ show, variant, onHide, onCreated }: CreateClassModalProps) {
  const [createClass, { isLoading }] = useCreateClassMutation();
  const toast = useToast();
  const { t } = useTranslation('teacher');
  const CREATE_CLASS_FAILED = t('classes.createFailed');

  const onSubmit = async (values: { name: string; subject: string; period: string }) => {
    try {
      const created = await createClass(values).unwrap();
      toast({ title: t('common:success'), description: t('classes.created') });
      onHide();
      onCreated?.(created);
    } catch (error) {
      toast({
        title: t('common:toast.error'),
        description:
          variant === 'dashboard'
            ? (planLimitMessage(error) ?? CREATE_CLASS_FAILED)
            : serverMessageOr(error, CREATE_CLASS_FAILED),
        variant: 'destructive',
      });
    }
  };

  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="create-class-title">
      <Modal.Header closeButton>
        <Modal.Title id="create-class-title" as="h2" className="h5">
          {t('classes.create')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {show && (
          <ClassForm
            variant={variant}
            idPrefix={`create-class-${variant}`}
            submitLabel={t('classes.create')}
            pendingLabel={t('classes.creating')}
            pending={isLoading}
            onSubmit={onSubmit}
            onCancel={onHide}
          />
        )}
      </Modal.Body>
    </Modal>
  );
}
