// /forgot-password: asks for the email and mails a reset link. The answer never says whether an
// account has the address, so the page does not either.
import { useState } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { serverMessageOr } from '../../api/apiError';
import { AuthCardLayout } from './AuthCardLayout';
import { useForgotPasswordMutation } from './emailApi';
import { forgotPasswordSchema, type ForgotPasswordValues } from './passwordSchemas';
import { useTranslation } from '../../i18n/react';
import { withStrong } from '../../i18n/rich';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotPasswordValues>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const [forgot, { isLoading }] = useForgotPasswordMutation();
  const [sentTo, setSentTo] = useState<string>();
  const toast = useToast();

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await forgot({ email }).unwrap();
      setSentTo(email);
    } catch (error) {
      toast({
        title: t('forgot.failed'),
        description: serverMessageOr(error, t('common:tryAgain')),
        variant: 'destructive',
      });
    }
  });

  return (
    <AuthCardLayout title={t('forgot.title')}>
      {sentTo ? (
        <Alert variant="success" className="mb-0" role="status">
          {withStrong(t('forgot.sent', { email: sentTo }))} <Link to="/auth?mode=login">{t('backToSignIn')}</Link>
        </Alert>
      ) : (
        <Form noValidate onSubmit={onSubmit} aria-label={t('forgot.form')}>
          <p className="text-body-secondary">{t('forgot.intro')}</p>
          <TextField
            id="forgot-email"
            label={t('common:email')}
            type="email"
            autoComplete="email"
            registration={register('email')}
            error={errors.email?.message}
          />
          <Button type="submit" className="w-100 mb-3" disabled={isLoading}>
            {isLoading ? t('forgot.submitting') : t('forgot.submit')}
          </Button>
          <div className="text-center">
            <Link to="/auth?mode=login">{t('backToSignIn')}</Link>
          </div>
        </Form>
      )}
    </AuthCardLayout>
  );
}
