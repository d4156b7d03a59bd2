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

interface LoginFormProps {
  variant: AuthVariant;
}

export function LoginForm({ variant }: LoginFormProps) {
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
        title: 'Login Failed',
        description: serverMessageOr(error, 'Please check your credentials'),
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
    <Form noValidate onSubmit={onSubmit} aria-label="Sign in">
      <TextField
        id="login-email"
        label="Email"
        type="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email?.message}
      />
      <DistrictSignIn email={watch('email')} />
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      <div className="text-end mb-3 mt-n2">
        <Link to="/forgot-password" className="small">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" className="w-100" disabled={isLoading}>
        {isLoading ? 'Signing in...' : 'Sign In'}
      </Button>
    </Form>
  );
}
