// The side menu of narrow screens: loaded when first opened (AppNavbar), so that the
// offcanvas and its modal machinery are not part of every signed-in page's first load.
import { Link, NavLink } from 'react-router';
import Button from 'react-bootstrap/Button';
import Nav from 'react-bootstrap/Nav';
import Offcanvas from 'react-bootstrap/Offcanvas';
import type { User } from '../session/user';
import { UserAvatar } from './UserAvatar';
import type { NavItem } from './navLinks';
import { useTranslation } from '../i18n/react';

const navLinkClass = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active fw-semibold' : ''}`;

interface SideMenuProps {
  show: boolean;
  onHide: () => void;
  user: User;
  name: string;
  items: readonly NavItem[];
  billing: boolean;
  signOut: () => Promise<void>;
}

export function SideMenu({ show, onHide: close, user, name, items, billing, signOut }: SideMenuProps) {
  const { t } = useTranslation('common');
  return (
    <Offcanvas id="side-menu" show={show} onHide={close} placement="start" aria-labelledby="side-menu-title">
      <Offcanvas.Header closeButton closeLabel={t('shell.closeMenu')}>
        <Offcanvas.Title id="side-menu-title" className="fw-bold text-primary">
          Checkpoint
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body className="d-flex flex-column">
        <div className="d-flex align-items-center gap-2 mb-3">
          <UserAvatar user={user} size={40} />
          <div>
            <div className="fw-semibold">{name}</div>
            <div className="small text-body-secondary">{user.email}</div>
          </div>
        </div>
        <Nav as="nav" aria-label={t('shell.sideMenu')} className="flex-column mb-3">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end className={navLinkClass} onClick={close}>
              {t(`nav.${item.label}`, { defaultValue: item.label })}
            </NavLink>
          ))}
          <hr />
          <NavLink to="/profile" end className={navLinkClass} onClick={close}>
            {t('shell.profile')}
          </NavLink>
          <NavLink to="/settings" end className={navLinkClass} onClick={close}>
            {t('shell.settings')}
          </NavLink>
        </Nav>
        <div className="mt-auto d-grid gap-2">
          {billing && (
            <Link to="/subscription" className="btn btn-primary" onClick={close}>
              {t('shell.upgrade')}
            </Link>
          )}
          <Button
            variant="outline-danger"
            onClick={() => {
              close();
              void signOut();
            }}
          >
            {t('shell.signOut')}
          </Button>
        </div>
      </Offcanvas.Body>
    </Offcanvas>
  );
}
