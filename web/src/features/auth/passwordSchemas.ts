// Forms of the password pages: the same messages as sign-up (spec §5).
import { z } from 'zod';
import { PASSWORD_MIN } from './authSchemas';

export const PASSWORD_MAX = 200;

const newPassword = z
  .string()
  .min(PASSWORD_MIN, { error: 'Password must be at least 6 characters' })
  .max(PASSWORD_MAX, { error: 'Password must be at most 200 characters' });

const confirmation = <T extends z.ZodRawShape>(shape: T, field: string) =>
  z.object(shape).refine((values: Record<string, unknown>) => values[field] === values.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
    when: (payload) =>
      payload.issues.every((issue) => issue.path?.[0] !== 'confirmPassword' && issue.path?.[0] !== field),
  });

export const forgotPasswordSchema = z.object({ email: z.email({ error: 'Please enter a valid email' }) });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = confirmation(
  { password: newPassword, confirmPassword: z.string().min(PASSWORD_MIN, { error: 'Please confirm your password' }) },
  'password',
);
export type ResetPasswordValues = { password: string; confirmPassword: string };

export const changePasswordSchema = confirmation(
  {
    currentPassword: z.string().min(1, { error: 'Current password is required' }),
    newPassword,
    confirmPassword: z.string().min(PASSWORD_MIN, { error: 'Please confirm your password' }),
  },
  'newPassword',
);
export type ChangePasswordValues = { currentPassword: string; newPassword: string; confirmPassword: string };
