// A small banner for a signed-in user whose address is not verified yet, with "Resend link".
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useToast } from '../components/toast/useToast';
import { serverMessageOr } from '../api/apiError';
import { useResendVerificationMutation } from '../api/generated/endpoints';
import type { User } from './user';
import { useTranslation } from '../i18n/react';
import { withStrong } from '../i18n/rich';

export function VerifyEmailBanner({ user }: { user: Pick<User, 'email' | 'emailVerified'> }) {
  const [resend, { isLoading, isSuccess }] = useResendVerificationMutation();
  const { t } = useTranslation('common');
  const toast = useToast();
  if (user.emailVerified !== false) return null;

  const onResend = async () => {
    try {
      await resend().unwrap();
      toast({ title: t('verifyBanner.sent'), description: t('verifyBanner.checkInbox', { email: user.email }) });
    } catch (error) {
      toast({
        title: t('verifyBanner.failed'),
        description: serverMessageOr(error, t('tryAgain')),
        variant: 'destructive',
      });
    }
  };

  return (
    <Alert variant="info" className="mb-0 rounded-0 py-2 d-flex flex-wrap align-items-center gap-2" role="status">
      <span className="me-auto text-break">{withStrong(t('verifyBanner.text', { email: user.email }))}</span>
      <Button size="sm" variant="outline-primary" onClick={onResend} disabled={isLoading || isSuccess}>
        {isSuccess ? t('verifyBanner.linkSent') : isLoading ? t('verifyBanner.sending') : t('verifyBanner.resend')}
      </Button>
    </Alert>
  );
}
