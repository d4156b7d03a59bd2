// The Profile button that opens Change Password. The modal (a form with its schema) loads when
// first opened, not with the profile page.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { lazyModal } from '../../app/lazyModal';

const ChangePasswordModal = lazyModal(() => import('./ChangePasswordModal').then((m) => m.ChangePasswordModal));

export function ChangePasswordButton() {
  const [show, setShow] = useState(false);
  return (
    <>
      <Button variant="outline-secondary" onClick={() => setShow(true)}>
        Change Password
      </Button>
      <ChangePasswordModal show={show} onClose={() => setShow(false)} />
    </>
  );
}
