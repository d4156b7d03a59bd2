// Validation rules and messages of the three auth pages (sign in, sign up, Google role).
// zod/mini: the same rules at a fraction of the weight on the sign-in pages (docs/architecture.md,
// "JavaScript per route").
import { z } from 'zod/mini';
import type { SignupRole } from '../../session/user';

/** /auth and /quick-auth share one behaviour; /simple-login differs (no confirm, no default role). */
export type AuthVariant = 'auth' | 'quick-auth' | 'simple-login';

export const PASSWORD_MIN = 6;
/** Teachers (and admins, who are invited) need 8 (ASVS V6.2); students need 6. */
export const STAFF_PASSWORD_MIN = 8;

/** The server also refuses common and breached passwords; its message names the field. */
const staffMinimum = z.refine(
  (values: unknown) => {
    const { password, role } = values as { password: string; role: string };
    return role !== 'teacher' || password.length >= STAFF_PASSWORD_MIN;
  },
  {
    error: 'validation.passwordMin8',
    path: ['password'],
    when: (payload) => payload.issues.every((issue) => issue.path?.[0] !== 'password'),
  },
);

function emailMessage(variant: AuthVariant): string {
  return variant === 'simple-login' ? 'validation.emailEnter' : 'validation.emailInvalid';
}

export interface LoginFormValues {
  email: string;
  password: string;
}

export function loginSchema(variant: AuthVariant) {
  return z.object({
    email: z.email({ error: emailMessage(variant) }),
    password: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.passwordMin6' })),
  });
}

/** A student's age band (docs/adr/015): under 13 signs up by email only at a school's address. */
export type AgeBand = 'under_13' | '13_or_older';

export interface SignupFormValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: SignupRole | '';
  ageBand: AgeBand | '';
}

export interface SignupValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: SignupRole;
  ageBand: AgeBand | '';
}

const role = z.enum(['teacher', 'student'], { error: 'validation.roleRequired' });

/** Students say their age band; teachers are not asked. */
const studentAgeBand = z.refine(
  (values: unknown) => {
    const { role, ageBand } = values as { role: string; ageBand: string };
    return role !== 'student' || ageBand !== '';
  },
  { error: 'validation.ageRequired', path: ['ageBand'] },
);

export function signupSchema(variant: AuthVariant): z.ZodMiniType<SignupValues, SignupFormValues> {
  const base = {
    firstName: z.string().check(z.minLength(1, { error: 'validation.firstNameRequired' })),
    lastName: z.string().check(z.minLength(1, { error: 'validation.lastNameRequired' })),
    email: z.email({ error: emailMessage(variant) }),
    password: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.passwordMin6' })),
    role,
    ageBand: z.enum(['under_13', '13_or_older', '']),
  };
  if (variant === 'simple-login') {
    return z.object({ ...base, confirmPassword: z.string() }).check(staffMinimum, studentAgeBand);
  }
  return z
    .object({
      ...base,
      confirmPassword: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.confirmPassword' })),
    })
    .check(
      z.refine((values) => values.password === values.confirmPassword, {
        error: 'validation.passwordsDontMatch',
        path: ['confirmPassword'],
        when: (payload) =>
          payload.issues.every((issue) => issue.path?.[0] !== 'confirmPassword' && issue.path?.[0] !== 'password'),
      }),
      staffMinimum,
      studentAgeBand,
    );
}

export const googleRoleSchema = z.object({ role });

/** Query parameter `role` preselects the sign-up role; anything else falls back to student. */
export function roleFromQuery(value: string | null): SignupRole {
  return value === 'teacher' ? 'teacher' : 'student';
}
