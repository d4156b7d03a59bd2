import type { SignupApiArg, User as UserAnswer } from '../api/generated/endpoints';

export type Role = UserAnswer['role'];
export type SignupRole = SignupApiArg['role'];

export type Preferences = UserAnswer['preferences'];

export const DEFAULT_PREFERENCES: Preferences = {
  emailNotifications: false,
  assessmentReminders: false,
  studentSubmissions: true,
  darkMode: false,
};

/**
 * GET /api/auth/user. preferences, emailVerified (the address was proven: a mailed link, a
 * reset, an invitation…) and locale may be absent in answers kept from older versions.
 */
export type User = Omit<UserAnswer, 'preferences' | 'emailVerified' | 'locale'> &
  Partial<Pick<UserAnswer, 'preferences' | 'emailVerified' | 'locale'>>;

/** Anything that is not student or admin is a teacher for navigation and routes. */
export function navRole(user: Pick<User, 'role'>): 'student' | 'admin' | 'teacher' {
  if (user.role === 'student') return 'student';
  if (user.role === 'admin') return 'admin';
  return 'teacher';
}

/** Where a sign-in lands: the admin dashboard for an admin, / (their dashboard) for anyone else. */
export function homePathAfterSignIn(user: Pick<User, 'role'>): '/' | '/admin' {
  return navRole(user) === 'admin' ? '/admin' : '/';
}

export function initials(user: Pick<User, 'firstName' | 'lastName'>): string {
  const first = user.firstName?.trim().charAt(0) ?? '';
  const last = user.lastName?.trim().charAt(0) ?? '';
  return (first + last).toUpperCase() || '?';
}

export function fullName(user: Pick<User, 'firstName' | 'lastName'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ');
}
