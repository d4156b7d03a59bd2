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

export interface SignupFormValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: SignupRole | '';
}

export interface SignupValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: SignupRole;
}

const role = z.enum(['teacher', 'student'], { error: 'validation.roleRequired' });

export function signupSchema(variant: AuthVariant): z.ZodMiniType<SignupValues, SignupFormValues> {
  const base = {
    firstName: z.string().check(z.minLength(1, { error: 'validation.firstNameRequired' })),
    lastName: z.string().check(z.minLength(1, { error: 'validation.lastNameRequired' })),
    email: z.email({ error: emailMessage(variant) }),
    password: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.passwordMin6' })),
    role,
  };
  if (variant === 'simple-login') {
    return z.object({ ...base, confirmPassword: z.string() }).check(staffMinimum);
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
    );
}

export const googleRoleSchema = z.object({ role });

/** Query parameter `role` preselects the sign-up role; anything else falls back to student. */
export function roleFromQuery(value: string | null): SignupRole {
  return value === 'teacher' ? 'teacher' : 'student';
}
