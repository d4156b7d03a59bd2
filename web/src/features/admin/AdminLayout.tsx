// /admin and its sections, one stable URL each: Overview (/admin), Users (/admin/users), Sign-in
// (/admin/sign-in), Roster (/admin/roster), Integrations (/admin/integrations), Standards (/admin/standards),
// Common assessments (/admin/common-assessments), Privacy (/admin/privacy).
import { NavLink, Outlet } from 'react-router';
import Nav from 'react-bootstrap/Nav';

export const ADMIN_SECTIONS = [
  { to: '/admin', label: 'Overview', end: true },
  { to: '/admin/users', label: 'Users', end: false },
  { to: '/admin/sign-in', label: 'Sign-in', end: false },
  { to: '/admin/roster', label: 'Roster', end: false },
  { to: '/admin/integrations', label: 'Integrations', end: false },
  { to: '/admin/standards', label: 'Standards', end: false },
  { to: '/admin/common-assessments', label: 'Common assessments', end: false },
  { to: '/admin/privacy', label: 'Privacy', end: false },
] as const;

export function AdminLayout() {
  return (
    <>
      <Nav variant="tabs" className="mb-4" as="nav" aria-label="Admin sections">
        {ADMIN_SECTIONS.map((s) => (
          <Nav.Item key={s.to}>
            <Nav.Link as={NavLink} to={s.to} end={s.end}>
              {s.label}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      <Outlet />
    </>
  );
}
