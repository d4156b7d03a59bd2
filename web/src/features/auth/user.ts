export type Role = 'student' | 'teacher' | 'admin';
export type SignupRole = 'teacher' | 'student';

export interface Preferences {
  emailNotifications: boolean;
  assessmentReminders: boolean;
  studentSubmissions: boolean;
  darkMode: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  emailNotifications: false,
  assessmentReminders: false,
  studentSubmissions: true,
  darkMode: false,
};

export interface User {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  profileImageUrl: string | null;
  createdAt: string;
  tenantId: string;
  accountType: 'district' | 'school' | 'individual';
  preferences?: Preferences;
  /** The address was proven (a mailed link, a reset, an invitation…); absent in old answers. */
  emailVerified?: boolean;
}

/** Spec §6: anything that is not student or admin is a teacher for navigation and routes. */
export function navRole(user: Pick<User, 'role'>): 'student' | 'admin' | 'teacher' {
  if (user.role === 'student') return 'student';
  if (user.role === 'admin') return 'admin';
  return 'teacher';
}

export function initials(user: Pick<User, 'firstName' | 'lastName'>): string {
  const first = user.firstName?.trim().charAt(0) ?? '';
  const last = user.lastName?.trim().charAt(0) ?? '';
  return (first + last).toUpperCase() || '?';
}

export function fullName(user: Pick<User, 'firstName' | 'lastName'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ');
}
