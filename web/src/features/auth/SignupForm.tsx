import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { serverMessageOr } from '../../api/apiError';
import { usePendingJoin } from '../joinClass/usePendingJoin';
import { useSignupMutation } from './authApi';
import { signupSchema, type AuthVariant, type SignupFormValues } from './authSchemas';
import { RoleChoice } from './RoleChoice';
import type { SignupRole, User } from './user';

export const POST_SIGNUP_REDIRECT_MS = 1000;

interface SignupFormProps {
  variant: AuthVariant;
  /** Preselected role; simple-login has none so the user must pick one. */
  defaultRole: SignupRole | '';
  /** simple-login: back to the login tab with this email. */
  onSignedUpNeedsLogin: (email: string) => void;
}

export function SignupForm({ variant, defaultRole, onSignedUpNeedsLogin }: SignupFormProps) {
  const withConfirm = variant !== 'simple-login';
  const schema = useMemo(() => signupSchema(variant), [variant]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupFormValues, unknown, ReturnType<typeof schema.parse>>({
    resolver: zodResolver(schema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '', role: defaultRole },
  });
  const [signup, { isLoading, isSuccess }] = useSignupMutation();
  const toast = useToast();
  /** An address at a district's domain: no account yet, a link went to it (202). */
  const [linkSentTo, setLinkSentTo] = useState<string>();

  const completePendingJoin = usePendingJoin();

  const onSubmit = handleSubmit(async ({ confirmPassword: _confirm, ...payload }) => {
    let signedUp: { user: User };
    try {
      const answer = await signup(payload).unwrap();
      if ('verificationSent' in answer) {
        setLinkSentTo(answer.email);
        return;
      }
      signedUp = answer;
    } catch (error) {
      toast({
        title: 'Signup Failed',
        description: serverMessageOr(error, 'Please try again'),
        variant: 'destructive',
      });
      return;
    }
    if (variant === 'simple-login') {
      toast({ title: 'Account created successfully. Please log in.' });
      onSignedUpNeedsLogin(payload.email);
      return;
    }
    toast({ title: 'Account created successfully! Logging you in...' });
    window.setTimeout(() => {
      // A join code entered while signed out is used now; the join then goes to / itself.
      void completePendingJoin(signedUp.user).then((joined) => {
        if (!joined) window.location.assign('/');
      });
    }, POST_SIGNUP_REDIRECT_MS);
  });

  if (linkSentTo) {
    return (
      <Alert variant="success" role="status" aria-label="Check your email">
        <Alert.Heading as="h2" className="h5">
          Check your email
        </Alert.Heading>
        <p className="mb-0">
          We sent a link to <strong>{linkSentTo}</strong>: open the link we sent to finish creating your account.
        </p>
      </Alert>
    );
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Create account">
      <div className="row">
        <div className="col-sm-6">
          <TextField
            id="signup-first-name"
            label="First Name"
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName?.message}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            id="signup-last-name"
            label="Last Name"
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName?.message}
          />
        </div>
      </div>
      <TextField
        id="signup-email"
        label="Email"
        type="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email?.message}
      />
      <TextField
        id="signup-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      {withConfirm && (
        <TextField
          id="signup-confirm-password"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
      )}
      <RoleChoice idPrefix="signup" legend="I am a" registration={register('role')} error={errors.role?.message} />
      <Button type="submit" className="w-100" disabled={isLoading || (isSuccess && withConfirm)}>
        {isLoading ? 'Creating account...' : 'Create Account'}
      </Button>
    </Form>
  );
}
