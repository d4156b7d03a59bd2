// /verify-email?token=…: the link of a verification or sign-up mail, opened once on arrival. A
// sign-up link creates the account and signs in ('Account created successfully! Logging you in...',
// then, 1 s after that toast shows, a join code entered while signed out is used, or the app
// starts at /); a
// verification link says the address is verified.
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import { serverMessageOr } from '../../api/apiError';
import { usePendingJoin } from '../joinClass';
import type { User } from '../../session/user';
import { AuthCardLayout } from './AuthCardLayout';
import { useVerifyEmailMutation } from './emailApi';
import { useTranslation } from '../../i18n/react';
import { withStrong } from '../../i18n/rich';

export const POST_SIGNUP_REDIRECT_MS = 1000;

export function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [verify, { data, error, isUninitialized }] = useVerifyEmailMutation();
  // The link works once: never post it twice (React runs effects twice in development).
  const sent = useRef(false);
  const toast = useToast();
  const completePendingJoin = usePendingJoin();
  const pendingJoin = useRef(completePendingJoin);
  pendingJoin.current = completePendingJoin;
  // Set together with the toast, so the wait below starts once the toast is on the screen (a timer
  // started beside it could fire first on a busy device, and the page would leave unannounced).
  const [signedInUser, setSignedInUser] = useState<User | null>(null);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    void verify({ token })
      .unwrap()
      .then((result) => {
        if (!result.signedIn) return;
        toast({ title: t('verify.created') });
        setSignedInUser(result.user);
      })
      .catch(() => {});
  }, [token, verify, toast, t]);

  useEffect(() => {
    if (!signedInUser) return;
    const timer = window.setTimeout(() => {
      // A join code entered while signed out (this tab) is used now; the join then goes to /
      // itself. Otherwise a full load: the app starts again with the new session.
      void pendingJoin.current(signedInUser).then((joined) => {
        if (!joined) window.location.assign('/');
      });
    }, POST_SIGNUP_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [signedInUser]);

  let body;
  if (!token || error) {
    body = (
      <Alert variant="warning" className="mb-0">
        {error ? serverMessageOr(error, t('linkGone')) : t('linkGone')} <Link to="/">{t('verify.goTo')}</Link>
      </Alert>
    );
  } else if (isUninitialized || !data || data.signedIn) {
    body = <PageSpinner />;
  } else {
    body = (
      <Alert variant="success" className="mb-0" role="status">
        {withStrong(t('verify.verified', { email: data.user.email }))} <Link to="/">{t('verify.continue')}</Link>
      </Alert>
    );
  }
  return <AuthCardLayout title={t('verify.title')}>{body}</AuthCardLayout>;
}
