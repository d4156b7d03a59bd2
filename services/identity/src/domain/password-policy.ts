// Which passwords may be set (ASVS V6.2): the spec's six characters for students (young children),
// eight for teachers and admins, and never one of the commonest leaked passwords, for anyone. The
// list is offline (about 49,000 passwords from breach corpora, @zxcvbn-ts/language-common, MIT).
import { ValidationError } from '@checkpoint/service-kit';
import { dictionary } from '@zxcvbn-ts/language-common';
import type { UserRole } from './user.ts';

const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

export const STUDENT_PASSWORD_MIN = 6;
export const STAFF_PASSWORD_MIN = 8;
export const COMMON_PASSWORD = 'This password is too common. Choose one that is harder to guess.';

export function passwordMinimum(role: UserRole): number {
  return role === 'student' ? STUDENT_PASSWORD_MIN : STAFF_PASSWORD_MIN;
}

/** The reason `password` may not be set for an account of `role`, or undefined when it may. */
export function passwordProblem(password: string, role: UserRole): string | undefined {
  const min = passwordMinimum(role);
  if (password.length < min) return `Password must be at least ${min} characters`;
  if (COMMON.has(password.toLowerCase())) return COMMON_PASSWORD;
  return undefined;
}

/** Throws a 400 naming `field` when `password` may not be set for an account of `role`. */
export function assertPasswordAllowed(password: string, role: UserRole, field = 'password'): void {
  const problem = passwordProblem(password, role);
  if (problem) throw new ValidationError(problem, { [field]: problem });
}
