import type { User } from '../features/auth/user';
import { navRole } from '../features/auth/user';

export interface NavItem {
  to: string;
  label: string;
}

/** Spec §2 Navigation bar, per role. */
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
        { to: '/', label: 'Classes' },
        { to: '/assessments', label: 'Assessments' },
        { to: '/students', label: 'All Students' },
        { to: '/reports', label: 'Reports' },
      ];
    default:
      return [
        { to: '/', label: 'Classes' },
        { to: '/assessments', label: 'Assessments' },
        { to: '/students', label: 'Students' },
        { to: '/reports', label: 'Reports' },
      ];
  }
}
