// Edit Class modal: name, subject and period required; a failure shows the server's message.
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { ClassForm } from './ClassForm';
import { useUpdateClassMutation, type ClassItem } from './classesApi';

interface EditClassModalProps {
  cls: ClassItem | null;
  onHide: () => void;
}

export function EditClassModal({ cls, onHide }: EditClassModalProps) {
  const [updateClass, { isLoading }] = useUpdateClassMutation();
  const toast = useToast();

  return (
    <Modal show={cls !== null} onHide={onHide} centered aria-labelledby="edit-class-title">
      <Modal.Header closeButton>
        <Modal.Title id="edit-class-title" as="h2" className="h5">
          Edit Class
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {cls && (
          <ClassForm
            key={cls.id}
            variant="full"
            idPrefix="edit-class"
            defaultValues={{ name: cls.name, subject: cls.subject, period: cls.period ?? '' }}
            submitLabel="Save Changes"
            pendingLabel="Saving..."
            pending={isLoading}
            onCancel={onHide}
            onSubmit={async (body) => {
              try {
                await updateClass({ id: cls.id, body }).unwrap();
                toast({ title: 'Success', description: 'Class updated successfully' });
                onHide();
              } catch (error) {
                toast({
                  title: 'Error',
                  description: serverMessageOr(error, 'Failed to update class'),
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
