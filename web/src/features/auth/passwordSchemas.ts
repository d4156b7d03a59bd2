// Forms of the password pages: the same messages as sign-up (authSchemas.ts).
import { z } from 'zod/mini';
import { PASSWORD_MIN } from './authSchemas';

export const PASSWORD_MAX = 200;

const newPassword = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN, { error: 'validation.passwordMin6' }),
    z.maxLength(PASSWORD_MAX, { error: 'validation.passwordMax200' }),
  );

const confirmation = <T extends z.core.$ZodLooseShape>(shape: T, field: string) =>
  z.object(shape).check(
    z.refine((values: Record<string, unknown>) => values[field] === values.confirmPassword, {
      error: 'validation.passwordsDontMatch',
      path: ['confirmPassword'],
      when: (payload) =>
        payload.issues.every((issue) => issue.path?.[0] !== 'confirmPassword' && issue.path?.[0] !== field),
    }),
  );

export const forgotPasswordSchema = z.object({ email: z.email({ error: 'validation.emailEnter' }) });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = confirmation(
  {
    password: newPassword,
    confirmPassword: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.confirmPassword' })),
  },
  'password',
);
export type ResetPasswordValues = { password: string; confirmPassword: string };

export const changePasswordSchema = confirmation(
  {
    currentPassword: z.string().check(z.minLength(1, { error: 'validation.currentPasswordRequired' })),
    newPassword,
    confirmPassword: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.confirmPassword' })),
  },
  'newPassword',
);
export type ChangePasswordValues = { currentPassword: string; newPassword: string; confirmPassword: string };
