// Signed-in navigation: links per role, user dropdown from md up, side menu below md.
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { fullName, navRole, type User } from '../session/user';
import { useSignOut } from '../session/useSignOut';
import { UserAvatar } from './UserAvatar';
import { UserMenu } from './UserMenu';
import { navItemsFor } from './navLinks';
import { lazyModal } from '../app/lazyModal';
import { useTranslation } from '../i18n/react';

// Narrow screens only, and only once opened: the offcanvas stays out of every page's first load.
const SideMenu = lazyModal(() => import('./SideMenu').then((m) => m.SideMenu));

const navLinkClass = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active fw-semibold' : ''}`;

export function AppNavbar({ user }: { user: User }) {
  const { t } = useTranslation('common');
  const [menuOpen, setMenuOpen] = useState(false);
  const signOut = useSignOut();
  const items = navItemsFor(user);
  // Students have no plan: billing is their school's or teacher's business.
  const billing = navRole(user) !== 'student';
  const name = fullName(user);
  const close = () => setMenuOpen(false);

  return (
    // Bootstrap's navbar classes as plain markup (what react-bootstrap's Navbar rendered): no
    // component code for a bar that has no behaviour of its own.
    <header role="navigation" className="navbar navbar-expand navbar-light bg-body border-bottom shadow-sm">
      <div className="container-lg">
        <button
          type="button"
          className="btn btn-outline-secondary d-md-none me-2"
          aria-label={t('shell.openMenu')}
          // No aria-controls: the side menu is loaded on first use, so the id it would name may not
          // exist yet when the button says it is expanded.
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        <Link to="/" className="navbar-brand fw-bold text-primary">
          Checkpoint
        </Link>
        <nav aria-label={t('shell.mainNav')} className="navbar-nav d-none d-md-flex me-auto">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end className={navLinkClass}>
              {t(`nav.${item.label}`, { defaultValue: item.label })}
            </NavLink>
          ))}
        </nav>
        <UserMenu user={user} name={name} billing={billing} signOut={signOut} />
        <div className="d-md-none ms-auto">
          <UserAvatar user={user} size={32} />
        </div>
        <SideMenu
          show={menuOpen}
          onHide={close}
          user={user}
          name={name}
          items={items}
          billing={billing}
          signOut={signOut}
        />
      </div>
    </header>
  );
}
