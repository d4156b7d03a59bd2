// Profile "Change Password": current, new and confirm. The server ends the user's other sessions;
// a wrong current password is shown under its field.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { useChangePasswordMutation, changePasswordSchema, type ChangePasswordValues } from '../auth';

const EMPTY: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ChangePasswordValues>({ resolver: zodResolver(changePasswordSchema), defaultValues: EMPTY });
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const toast = useToast();

  const close = () => {
    reset(EMPTY);
    onClose();
  };

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await changePassword({ currentPassword, newPassword }).unwrap();
    } catch (error) {
      const fields = isApiError(error) ? error.fields : undefined;
      if (fields?.currentPassword) {
        setError('currentPassword', { message: fields.currentPassword });
        return;
      }
      if (fields?.newPassword) {
        setError('newPassword', { message: fields.newPassword });
        return;
      }
      toast({
        title: 'Could not change the password',
        description: serverMessageOr(error, 'Please try again'),
        variant: 'destructive',
      });
      return;
    }
    toast({ title: 'Password changed', description: 'You were signed out on your other devices.' });
    close();
  });

  return (
    <Modal show={show} onHide={isLoading ? () => undefined : close} centered aria-labelledby="change-password-title">
      <Form noValidate onSubmit={onSubmit} aria-label="Change password">
        <Modal.Header closeButton={!isLoading}>
          <Modal.Title id="change-password-title">Change Password</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <TextField
            id="current-password"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            registration={register('currentPassword')}
            error={errors.currentPassword?.message}
          />
          <TextField
            id="new-password"
            label="New Password"
            type="password"
            autoComplete="new-password"
            registration={register('newPassword')}
            error={errors.newPassword?.message}
          />
          <TextField
            id="confirm-new-password"
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            registration={register('confirmPassword')}
            error={errors.confirmPassword?.message}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" disabled={isLoading}>
            {isLoading ? 'Saving...' : 'Change Password'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
