// The user menu of wide screens: a disclosure button with the avatar and, when open, the
// links under it; Escape (focus back on the button), a click elsewhere or a choice closes it.
// Bootstrap's dropdown classes without its positioning engine (popper): the shell of every
// signed-in page stays light (docs/architecture.md, "JavaScript per route").
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { User } from '../session/user';
import { UserAvatar } from './UserAvatar';
import { useTranslation } from '../i18n/react';

interface UserMenuProps {
  user: User;
  name: string;
  billing: boolean;
  signOut: () => Promise<void>;
}

export function UserMenu({ user, name, billing, signOut }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const { t } = useTranslation('common');

  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const close = () => setOpen(false);
  return (
    <div ref={root} className="dropdown d-none d-md-block ms-auto">
      <button
        ref={toggle}
        type="button"
        className="btn btn-link p-0 border-0 text-decoration-none"
        aria-label={t('shell.userMenu')}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
      >
        <UserAvatar user={user} />
      </button>
      {open && (
        // data-bs-popper="static": Bootstrap's CSS then places the menu under the button, at its right edge.
        <div id={menuId} className="dropdown-menu dropdown-menu-end show" data-bs-popper="static">
          <div className="dropdown-header">
            <div className="fw-semibold text-body">{name}</div>
            <div className="small">{user.email}</div>
          </div>
          <hr className="dropdown-divider" />
          <Link className="dropdown-item" to="/profile" onClick={close}>
            {t('shell.profile')}
          </Link>
          {billing && (
            <>
              <span className="dropdown-item-text small text-body-secondary">{t('shell.currentPlan')}</span>
              <Link className="dropdown-item" to="/subscription" onClick={close}>
                {t('shell.upgrade')}
              </Link>
            </>
          )}
          <Link className="dropdown-item" to="/settings" onClick={close}>
            {t('shell.settings')}
          </Link>
          <hr className="dropdown-divider" />
          <button
            type="button"
            className="dropdown-item"
            onClick={() => {
              close();
              void signOut();
            }}
          >
            {t('shell.signOut')}
          </button>
        </div>
      )}
    </div>
  );
}
