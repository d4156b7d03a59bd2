// Signed-in navigation (spec §2): links per role, user dropdown from md up, side menu below md.
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Dropdown from 'react-bootstrap/Dropdown';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { fullName, type User } from '../features/auth/user';
import { useSignOut } from '../features/auth/useSignOut';
import { UserAvatar } from './UserAvatar';
import { navItemsFor } from './navLinks';

const navLinkClass = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active fw-semibold' : ''}`;

export function AppNavbar({ user }: { user: User }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const signOut = useSignOut();
  const items = navItemsFor(user);
  const name = fullName(user);
  const close = () => setMenuOpen(false);

  return (
    <Navbar bg="body" className="border-bottom shadow-sm" as="header">
      <Container fluid="lg">
        <Button
          variant="outline-secondary"
          className="d-md-none me-2"
          aria-label="Open menu"
          aria-controls="side-menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
        >
          <span className="navbar-toggler-icon" />
        </Button>
        <Navbar.Brand as={Link} to="/" className="fw-bold text-primary">
          Checkpoint
        </Navbar.Brand>
        <Nav as="nav" aria-label="Main" className="d-none d-md-flex me-auto">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end className={navLinkClass}>
              {item.label}
            </NavLink>
          ))}
        </Nav>
        <Dropdown align="end" className="d-none d-md-block ms-auto">
          <Dropdown.Toggle variant="link" className="p-0 border-0 text-decoration-none" aria-label="User menu">
            <UserAvatar user={user} />
          </Dropdown.Toggle>
          <Dropdown.Menu>
            <Dropdown.Header>
              <div className="fw-semibold text-body">{name}</div>
              <div className="small">{user.email}</div>
            </Dropdown.Header>
            <Dropdown.Divider />
            <Dropdown.Item as={Link} to="/profile">
              Profile
            </Dropdown.Item>
            <Dropdown.ItemText className="small text-body-secondary">Current Plan: Free Trial</Dropdown.ItemText>
            <Dropdown.Item as={Link} to="/subscription">
              Upgrade Plan
            </Dropdown.Item>
            <Dropdown.Item as={Link} to="/settings">
              Settings
            </Dropdown.Item>
            <Dropdown.Divider />
            <Dropdown.Item as="button" onClick={() => void signOut()}>
              Sign out
            </Dropdown.Item>
          </Dropdown.Menu>
        </Dropdown>
        <div className="d-md-none ms-auto">
          <UserAvatar user={user} size={32} />
        </div>
        <Offcanvas id="side-menu" show={menuOpen} onHide={close} placement="start" aria-labelledby="side-menu-title">
          <Offcanvas.Header closeButton closeLabel="Close menu">
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
            <Nav as="nav" aria-label="Side menu" className="flex-column mb-3">
              {items.map((item) => (
                <NavLink key={item.to} to={item.to} end className={navLinkClass} onClick={close}>
                  {item.label}
                </NavLink>
              ))}
              <hr />
              <NavLink to="/profile" end className={navLinkClass} onClick={close}>
                Profile
              </NavLink>
              <NavLink to="/settings" end className={navLinkClass} onClick={close}>
                Settings
              </NavLink>
            </Nav>
            <div className="mt-auto d-grid gap-2">
              <Link to="/subscription" className="btn btn-primary" onClick={close}>
                Upgrade Plan
              </Link>
              <Button
                variant="outline-danger"
                onClick={() => {
                  close();
                  void signOut();
                }}
              >
                Sign out
              </Button>
            </div>
          </Offcanvas.Body>
        </Offcanvas>
      </Container>
    </Navbar>
  );
}
