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
import { useTranslation } from '../../i18n/react';

export const LINK_GONE = 'This link has expired or was already used. Please request a new one.';

export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
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
        title: t('reset.failed'),
        description: serverMessageOr(failure, t('common:tryAgain')),
        variant: 'destructive',
      });
      return;
    }
    toast({ title: t('reset.done'), description: t('reset.doneDescription') });
    navigate('/auth?mode=login', { replace: true });
  });

  const linkGone = !token || (isApiError(error) && error.code === 'invalid_token');
  return (
    <AuthCardLayout title={t('reset.title')}>
      {linkGone ? (
        <Alert variant="warning" className="mb-0">
          {(isApiError(error) && error.serverMessage) || t('linkGone')}{' '}
          <Link to="/forgot-password">{t('reset.requestNew')}</Link>
        </Alert>
      ) : (
        <Form noValidate onSubmit={onSubmit} aria-label={t('reset.form')}>
          <TextField
            id="reset-password"
            label={t('reset.newPassword')}
            type="password"
            autoComplete="new-password"
            registration={register('password')}
            error={errors.password?.message}
          />
          <TextField
            id="reset-confirm-password"
            label={t('common:confirmPassword')}
            type="password"
            autoComplete="new-password"
            registration={register('confirmPassword')}
            error={errors.confirmPassword?.message}
          />
          <Button type="submit" className="w-100" disabled={isLoading}>
            {isLoading ? t('reset.submitting') : t('reset.submit')}
          </Button>
        </Form>
      )}
    </AuthCardLayout>
  );
}
