// /verify-email?token=…: the link of a verification or sign-up mail, opened once on arrival. A
// sign-up link creates the account and signs in (then the app starts at /); a verification link
// says the address is verified.
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import { PageSpinner } from '../../components/PageSpinner';
import { serverMessageOr } from '../../api/apiError';
import { AuthCardLayout } from './AuthCardLayout';
import { useVerifyEmailMutation } from './emailApi';
import { LINK_GONE } from './ResetPasswordPage';

export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [verify, { data, error, isUninitialized }] = useVerifyEmailMutation();
  // The link works once: never post it twice (React runs effects twice in development).
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    void verify({ token })
      .unwrap()
      .then((result) => {
        // A full load: the app starts again with the new session.
        if (result.signedIn) window.location.assign('/');
      })
      .catch(() => {});
  }, [token, verify]);

  let body;
  if (!token || error) {
    body = (
      <Alert variant="warning" className="mb-0">
        {error ? serverMessageOr(error, LINK_GONE) : LINK_GONE} <Link to="/">Go to Checkpoint</Link>
      </Alert>
    );
  } else if (isUninitialized || !data || data.signedIn) {
    body = <PageSpinner />;
  } else {
    body = (
      <Alert variant="success" className="mb-0" role="status">
        Your email <strong>{data.user.email}</strong> is verified. <Link to="/">Continue to Checkpoint</Link>
      </Alert>
    );
  }
  return <AuthCardLayout title="Verify your email">{body}</AuthCardLayout>;
}
