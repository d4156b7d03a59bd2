import { useLayoutEffect, useRef, useState } from 'react';
import Toast from 'react-bootstrap/Toast';
import { i18n } from '../../i18n/i18n';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { dismissToast } from './toastSlice';

export const TOAST_DURATION_MS = 5000;

type Corner = 'bottom-end' | 'top-end';

/** Whether the focused control lies under the box (WCAG 2.4.11: a toast must not hide it). */
function coversFocus(box: HTMLElement | null): boolean {
  const focused = document.activeElement;
  if (!box || !focused || focused === document.body || box.contains(focused)) return false;
  const toast = box.querySelector('.toast')?.getBoundingClientRect();
  const f = focused.getBoundingClientRect();
  // The main content (the skip link's target) is under both corners: nowhere to go.
  if (!toast || f.width === 0 || f.height === 0 || f.height > window.innerHeight / 2) return false;
  return f.left < toast.right && f.right > toast.left && f.top < toast.bottom && f.bottom > toast.top;
}

/**
 * The toast shows at the bottom corner of the window, unless the focused control is there (the
 * taking page's Next, a form's submit): then at the top corner, and back when the focus moves
 * under it there.
 */
function useCornerAwayFromFocus(shown: boolean) {
  const [corner, setCorner] = useState<Corner>('bottom-end');
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!shown) return;
    // Once when the toast shows and once per move of the focus (never again on its own move: a
    // control as tall as the window would send it back and forth).
    const move = () => {
      if (coversFocus(ref.current)) setCorner((c) => (c === 'bottom-end' ? 'top-end' : 'bottom-end'));
    };
    move();
    document.addEventListener('focusin', move);
    return () => document.removeEventListener('focusin', move);
  }, [shown]);
  return { corner, ref };
}

export function Toaster() {
  const toast = useAppSelector((state) => state.toast.current);
  const dispatch = useAppDispatch();
  const { corner, ref } = useCornerAwayFromFocus(toast !== null);
  if (!toast) return null;
  const destructive = toast.variant === 'destructive';
  return (
    <ToastContainer ref={ref} position={corner} className="p-3 position-fixed toaster" style={{ zIndex: 2000 }}>
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
