// /accept-invitation?token=…: the link a district admin's invitation mails. Shows the district and
// the invited address (read-only), asks for names and a password, and creates the account in the
// district (signed in afterwards).
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod/mini';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { PageSpinner } from '../../components/PageSpinner';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { serverMessageOr } from '../../api/apiError';
import { AuthCardLayout } from './AuthCardLayout';
import { useAcceptInvitationMutation, useGetInvitationQuery } from '../../session/authApi';
import { PASSWORD_MIN } from './authSchemas';
import { useTranslation } from '../../i18n/react';
import { withStrong } from '../../i18n/rich';

const acceptSchema = z
  .object({
    firstName: z.string().check(z.trim(), z.minLength(1, { error: 'validation.firstNameRequired' })),
    lastName: z.string().check(z.trim(), z.minLength(1, { error: 'validation.lastNameRequired' })),
    password: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.passwordMin6' })),
    confirmPassword: z.string().check(z.minLength(PASSWORD_MIN, { error: 'validation.confirmPassword' })),
  })
  .check(
    z.refine((values) => values.password === values.confirmPassword, {
      error: 'validation.passwordsDontMatch',
      path: ['confirmPassword'],
      when: (payload) =>
        payload.issues.every((issue) => issue.path?.[0] !== 'confirmPassword' && issue.path?.[0] !== 'password'),
    }),
  );
type AcceptValues = z.infer<typeof acceptSchema>;

function AcceptInvitationForm({ token, email, districtName }: { token: string; email: string; districtName: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AcceptValues>({
    resolver: zodResolver(acceptSchema),
    defaultValues: { firstName: '', lastName: '', password: '', confirmPassword: '' },
  });
  const [accept, { isLoading, isSuccess }] = useAcceptInvitationMutation();
  const toast = useToast();
  const { t } = useTranslation('auth');

  const onSubmit = handleSubmit(async ({ firstName, lastName, password }) => {
    try {
      await accept({ token, firstName, lastName, password }).unwrap();
    } catch (error) {
      toast({
        title: t('invitation.failed'),
        description: serverMessageOr(error, t('common:tryAgain')),
        variant: 'destructive',
      });
      return;
    }
    toast({ title: t('invitation.welcome', { district: districtName }) });
    // A full load: the app starts again with the new session.
    window.location.assign('/');
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={t('invitation.form')}>
      <Form.Group className="mb-3" controlId="invitation-email">
        <Form.Label>{t('common:email')}</Form.Label>
        <Form.Control type="email" value={email} readOnly />
      </Form.Group>
      <div className="row">
        <div className="col-sm-6">
          <TextField
            id="invitation-first-name"
            label={t('signUp.firstName')}
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName?.message}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            id="invitation-last-name"
            label={t('signUp.lastName')}
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName?.message}
          />
        </div>
      </div>
      <TextField
        id="invitation-password"
        label={t('common:password')}
        type="password"
        autoComplete="new-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      <TextField
        id="invitation-confirm-password"
        label={t('common:confirmPassword')}
        type="password"
        autoComplete="new-password"
        registration={register('confirmPassword')}
        error={errors.confirmPassword?.message}
      />
      <Button type="submit" className="w-100" disabled={isLoading || isSuccess}>
        {isLoading ? t('signUp.submitting') : t('invitation.submit')}
      </Button>
    </Form>
  );
}

export function AcceptInvitationPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const { data, isLoading, isError } = useGetInvitationQuery(token, { skip: !token });
  const { t } = useTranslation('auth');
  const body = useMemo(() => {
    if (!token || isError) {
      return (
        <Alert variant="warning" className="mb-0">
          {t('invitation.gone')} <Link to="/auth">{t('invitation.goToSignIn')}</Link>
        </Alert>
      );
    }
    if (isLoading || !data) return <PageSpinner />;
    return (
      <>
        <p className="text-body-secondary">{withStrong(t('invitation.invited', { district: data.districtName }))}</p>
        <AcceptInvitationForm token={token} email={data.email} districtName={data.districtName} />
      </>
    );
  }, [token, isError, isLoading, data, t]);

  return (
    <AuthCardLayout
      title={data ? t('invitation.title', { district: data.districtName }) : t('invitation.titleLoading')}
    >
      {body}
    </AuthCardLayout>
  );
}
