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

export const INVITATION_GONE =
  'This invitation has expired or was already used. Ask your district admin for a new one.';

const acceptSchema = z
  .object({
    firstName: z.string().check(z.trim(), z.minLength(1, { error: 'First name is required' })),
    lastName: z.string().check(z.trim(), z.minLength(1, { error: 'Last name is required' })),
    password: z.string().check(z.minLength(PASSWORD_MIN, { error: 'Password must be at least 6 characters' })),
    confirmPassword: z.string().check(z.minLength(PASSWORD_MIN, { error: 'Please confirm your password' })),
  })
  .check(
    z.refine((values) => values.password === values.confirmPassword, {
      error: "Passwords don't match",
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

  const onSubmit = handleSubmit(async ({ firstName, lastName, password }) => {
    try {
      await accept({ token, firstName, lastName, password }).unwrap();
    } catch (error) {
      toast({
        title: 'Could not create your account',
        description: serverMessageOr(error, 'Please try again'),
        variant: 'destructive',
      });
      return;
    }
    toast({ title: `Welcome to ${districtName}!` });
    // A full load: the app starts again with the new session.
    window.location.assign('/');
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Accept invitation">
      <Form.Group className="mb-3" controlId="invitation-email">
        <Form.Label>Email</Form.Label>
        <Form.Control type="email" value={email} readOnly />
      </Form.Group>
      <div className="row">
        <div className="col-sm-6">
          <TextField
            id="invitation-first-name"
            label="First Name"
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName?.message}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            id="invitation-last-name"
            label="Last Name"
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName?.message}
          />
        </div>
      </div>
      <TextField
        id="invitation-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      <TextField
        id="invitation-confirm-password"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        registration={register('confirmPassword')}
        error={errors.confirmPassword?.message}
      />
      <Button type="submit" className="w-100" disabled={isLoading || isSuccess}>
        {isLoading ? 'Creating account...' : 'Create account'}
      </Button>
    </Form>
  );
}

export function AcceptInvitationPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const { data, isLoading, isError } = useGetInvitationQuery(token, { skip: !token });
  const body = useMemo(() => {
    if (!token || isError) {
      return (
        <Alert variant="warning" className="mb-0">
          {INVITATION_GONE} <Link to="/auth">Go to sign-in</Link>
        </Alert>
      );
    }
    if (isLoading || !data) return <PageSpinner />;
    return (
      <>
        <p className="text-body-secondary">
          You were invited to join <strong>{data.districtName}</strong> on Checkpoint.
        </p>
        <AcceptInvitationForm token={token} email={data.email} districtName={data.districtName} />
      </>
    );
  }, [token, isError, isLoading, data]);

  return <AuthCardLayout title={data ? `Join ${data.districtName}` : 'Accept your invitation'}>{body}</AuthCardLayout>;
}
