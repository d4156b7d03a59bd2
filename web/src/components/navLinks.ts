import type { User } from '../session/user';
import { navRole } from '../session/user';

export interface NavItem {
  to: string;
  label: string;
}

/**
 * The navigation bar's links, per role; "Classes" leads to the class list (/classes), not to the
 * dashboard at /, which a teacher reaches by its own Dashboard link and the brand.
 */
export function navItemsFor(user: Pick<User, 'role'>): NavItem[] {
  switch (navRole(user)) {
    case 'student':
      return [
        { to: '/', label: 'Dashboard' },
        { to: '/join-class', label: 'Join Class' },
      ];
    case 'admin':
      return [
        { to: '/admin', label: 'Admin Dashboard' },
        { to: '/classes', label: 'Classes' },
        { to: '/assessments', label: 'Assessments' },
        { to: '/bank', label: 'Item Bank' },
        { to: '/students', label: 'All Students' },
        { to: '/reports', label: 'Reports' },
      ];
    default:
      return [
        { to: '/', label: 'Dashboard' },
        { to: '/classes', label: 'Classes' },
        { to: '/assessments', label: 'Assessments' },
        { to: '/bank', label: 'Item Bank' },
        { to: '/students', label: 'Students' },
        { to: '/reports', label: 'Reports' },
      ];
  }
}
