// /reset-password?token=…: the link of a reset mail. A new password (twice); success ends every
// session of the account and goes to the sign-in page with a toast.
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { AuthCardLayout } from './AuthCardLayout';
import { useResetPasswordMutation } from './emailApi';
import { resetPasswordSchema, type ResetPasswordValues } from './passwordSchemas';

export const LINK_GONE = 'This link has expired or was already used. Please request a new one.';

export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const navigate = useNavigate();
  const toast = useToast();
  const [reset, { isLoading, error }] = useResetPasswordMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await reset({ token, password }).unwrap();
    } catch (failure) {
      if (isApiError(failure) && failure.code === 'invalid_token') return;
      toast({
        title: 'Could not set the password',
        description: serverMessageOr(failure, 'Please try again'),
        variant: 'destructive',
      });
      return;
    }
    toast({ title: 'Password updated', description: 'Sign in with your new password.' });
    navigate('/auth?mode=login', { replace: true });
  });

  const linkGone = !token || (isApiError(error) && error.code === 'invalid_token');
  return (
    <AuthCardLayout title="Choose a new password">
      {linkGone ? (
        <Alert variant="warning" className="mb-0">
          {(isApiError(error) && error.serverMessage) || LINK_GONE}{' '}
          <Link to="/forgot-password">Request a new link</Link>
        </Alert>
      ) : (
        <Form noValidate onSubmit={onSubmit} aria-label="Reset password">
          <TextField
            id="reset-password"
            label="New Password"
            type="password"
            autoComplete="new-password"
            registration={register('password')}
            error={errors.password?.message}
          />
          <TextField
            id="reset-confirm-password"
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            registration={register('confirmPassword')}
            error={errors.confirmPassword?.message}
          />
          <Button type="submit" className="w-100" disabled={isLoading}>
            {isLoading ? 'Saving...' : 'Set new password'}
          </Button>
        </Form>
      )}
    </AuthCardLayout>
  );
}
