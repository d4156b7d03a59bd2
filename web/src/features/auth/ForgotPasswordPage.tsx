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

export function ForgotPasswordPage() {
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
        title: 'Could not send the link',
        description: serverMessageOr(error, 'Please try again'),
        variant: 'destructive',
      });
    }
  });

  return (
    <AuthCardLayout title="Reset your password">
      {sentTo ? (
        <Alert variant="success" className="mb-0" role="status">
          If an account exists for <strong>{sentTo}</strong>, we have sent it a link to reset the password. Check your
          inbox (and spam folder); the link expires in 1 hour. <Link to="/auth?mode=login">Back to sign-in</Link>
        </Alert>
      ) : (
        <Form noValidate onSubmit={onSubmit} aria-label="Forgot password">
          <p className="text-body-secondary">
            Enter the email of your account and we will mail you a link to choose a new password.
          </p>
          <TextField
            id="forgot-email"
            label="Email"
            type="email"
            autoComplete="email"
            registration={register('email')}
            error={errors.email?.message}
          />
          <Button type="submit" className="w-100 mb-3" disabled={isLoading}>
            {isLoading ? 'Sending...' : 'Send reset link'}
          </Button>
          <div className="text-center">
            <Link to="/auth?mode=login">Back to sign-in</Link>
          </div>
        </Form>
      )}
    </AuthCardLayout>
  );
}
