import Toast from 'react-bootstrap/Toast';
import { i18n } from '../../i18n/i18n';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { dismissToast } from './toastSlice';

export const TOAST_DURATION_MS = 5000;

export function Toaster() {
  const toast = useAppSelector((state) => state.toast.current);
  const dispatch = useAppDispatch();
  if (!toast) return null;
  const destructive = toast.variant === 'destructive';
  return (
    <ToastContainer position="bottom-end" className="p-3 position-fixed toaster" style={{ zIndex: 2000 }}>
      <Toast
        key={toast.id}
        show
        autohide
        delay={TOAST_DURATION_MS}
        onClose={() => dispatch(dismissToast(toast.id))}
        bg={destructive ? 'danger' : undefined}
        role={destructive ? 'alert' : 'status'}
        aria-live={destructive ? 'assertive' : 'polite'}
        data-testid="toast"
      >
        <Toast.Header closeButton closeLabel={i18n.t('common:toast.close')}>
          <strong className="me-auto">{toast.title}</strong>
        </Toast.Header>
        {toast.description && (
          <Toast.Body className={destructive ? 'text-white' : undefined}>{toast.description}</Toast.Body>
        )}
      </Toast>
    </ToastContainer>
  );
}
