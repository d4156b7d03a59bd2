// /admin and its sections, one stable URL each: Overview (/admin), Users (/admin/users), Sign-in
// (/admin/sign-in), Roster (/admin/roster), Integrations (/admin/integrations), Standards (/admin/standards),
// Common assessments (/admin/common-assessments), Privacy (/admin/privacy).
import { NavLink, Outlet } from 'react-router';
import Nav from 'react-bootstrap/Nav';
import { useTranslation } from '../../i18n/react';

/** The sections; label: the section's key under admin:sections. */
export const ADMIN_SECTIONS = [
  { to: '/admin', label: 'overview', end: true },
  { to: '/admin/users', label: 'users', end: false },
  { to: '/admin/sign-in', label: 'signIn', end: false },
  { to: '/admin/roster', label: 'roster', end: false },
  { to: '/admin/integrations', label: 'integrations', end: false },
  { to: '/admin/standards', label: 'standards', end: false },
  { to: '/admin/common-assessments', label: 'commonAssessments', end: false },
  { to: '/admin/privacy', label: 'privacy', end: false },
] as const;

export function AdminLayout() {
  const { t } = useTranslation('admin');
  return (
    <>
      <Nav variant="tabs" className="mb-4" as="nav" aria-label={t('sections.nav')}>
        {ADMIN_SECTIONS.map((s) => (
          <Nav.Item key={s.to}>
            <Nav.Link as={NavLink} to={s.to} end={s.end}>
              {t(`sections.${s.label}`)}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      <Outlet />
    </>
  );
}
