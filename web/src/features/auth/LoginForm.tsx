import { useMemo } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { serverMessageOr } from '../../api/apiError';
import { usePendingJoin } from '../joinClass';
import { useLoginMutation } from '../../session/authApi';
import { DistrictSignIn } from './DistrictSignIn';
import { loginSchema, type AuthVariant, type LoginFormValues } from './authSchemas';
import { homePathAfterSignIn, type User } from '../../session/user';
import { useTranslation } from '../../i18n/react';

interface LoginFormProps {
  variant: AuthVariant;
}

export function LoginForm({ variant }: LoginFormProps) {
  const { t } = useTranslation('auth');
  const schema = useMemo(() => loginSchema(variant), [variant]);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<LoginFormValues>({
    resolver: zodResolver(schema),
    defaultValues: { email: '', password: '' },
  });
  const [login, { isLoading }] = useLoginMutation();
  const toast = useToast();

  const completePendingJoin = usePendingJoin();

  const onSubmit = handleSubmit(async (values) => {
    let signedIn: { user: User };
    try {
      signedIn = await login(values).unwrap();
    } catch (error) {
      toast({
        title: t('signIn.failed'),
        description: serverMessageOr(error, t('signIn.checkCredentials')),
        variant: 'destructive',
      });
      return;
    }
    // A join code entered while signed out is used now; the join then goes to / itself.
    if (await completePendingJoin(signedIn.user)) return;
    // Full page load so every cached query starts from the new session; an admin starts on the
    // admin dashboard, everyone else on their dashboard.
    window.location.assign(homePathAfterSignIn(signedIn.user));
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={t('signIn.form')}>
      <TextField
        id="login-email"
        label={t('common:email')}
        type="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email?.message}
      />
      <DistrictSignIn email={watch('email')} />
      <TextField
        id="login-password"
        label={t('common:password')}
        type="password"
        autoComplete="current-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      <div className="text-end mb-3 mt-n2">
        <Link to="/forgot-password" className="small">
          {t('signIn.forgot')}
        </Link>
      </div>
      <Button type="submit" className="w-100" disabled={isLoading}>
        {isLoading ? t('signIn.submitting') : t('signIn.submit')}
      </Button>
    </Form>
  );
}
