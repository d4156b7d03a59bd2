// A small banner for a signed-in user whose address is not verified yet, with "Resend link".
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useToast } from '../components/toast/useToast';
import { serverMessageOr } from '../api/apiError';
import { useResendVerificationMutation } from '../api/generated/endpoints';
import type { User } from './user';

export function VerifyEmailBanner({ user }: { user: Pick<User, 'email' | 'emailVerified'> }) {
  const [resend, { isLoading, isSuccess }] = useResendVerificationMutation();
  const toast = useToast();
  if (user.emailVerified !== false) return null;

  const onResend = async () => {
    try {
      await resend().unwrap();
      toast({ title: 'Verification link sent', description: `Check the inbox of ${user.email}.` });
    } catch (error) {
      toast({
        title: 'Could not send the link',
        description: serverMessageOr(error, 'Please try again'),
        variant: 'destructive',
      });
    }
  };

  return (
    <Alert variant="info" className="mb-0 rounded-0 py-2 d-flex flex-wrap align-items-center gap-2" role="status">
      <span className="me-auto text-break">
        Please verify your email address: we sent a link to <strong>{user.email}</strong>.
      </span>
      <Button size="sm" variant="outline-primary" onClick={onResend} disabled={isLoading || isSuccess}>
        {isSuccess ? 'Link sent' : isLoading ? 'Sending...' : 'Resend link'}
      </Button>
    </Alert>
  );
}
