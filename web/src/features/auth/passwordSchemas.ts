// Forms of the password pages: the same messages as sign-up (authSchemas.ts).
import { z } from 'zod/mini';
import { PASSWORD_MIN } from './authSchemas';

export const PASSWORD_MAX = 200;

const newPassword = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN, { error: 'Password must be at least 6 characters' }),
    z.maxLength(PASSWORD_MAX, { error: 'Password must be at most 200 characters' }),
  );

const confirmation = <T extends z.core.$ZodLooseShape>(shape: T, field: string) =>
  z.object(shape).check(
    z.refine((values: Record<string, unknown>) => values[field] === values.confirmPassword, {
      error: "Passwords don't match",
      path: ['confirmPassword'],
      when: (payload) =>
        payload.issues.every((issue) => issue.path?.[0] !== 'confirmPassword' && issue.path?.[0] !== field),
    }),
  );

export const forgotPasswordSchema = z.object({ email: z.email({ error: 'Please enter a valid email' }) });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = confirmation(
  {
    password: newPassword,
    confirmPassword: z.string().check(z.minLength(PASSWORD_MIN, { error: 'Please confirm your password' })),
  },
  'password',
);
export type ResetPasswordValues = { password: string; confirmPassword: string };

export const changePasswordSchema = confirmation(
  {
    currentPassword: z.string().check(z.minLength(1, { error: 'Current password is required' })),
    newPassword,
    confirmPassword: z.string().check(z.minLength(PASSWORD_MIN, { error: 'Please confirm your password' })),
  },
  'newPassword',
);
export type ChangePasswordValues = { currentPassword: string; newPassword: string; confirmPassword: string };
