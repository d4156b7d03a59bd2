// /login-card#<secret>: the address a login card's QR holds. The secret is in the fragment (never
// sent to a server by the browser, so no log holds it); the page posts it, and a session starts as
// with a password (full page load after). A revoked or expired card says to ask the teacher.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Spinner from 'react-bootstrap/Spinner';
import { serverMessageOr } from '../../api/apiError';
import { homePathAfterSignIn } from '../../session/user';
import { useLoginCardLoginMutation } from './studentLoginsApi';
import { useTranslation } from '../../i18n/react';

export function LoginCardPage() {
  const [signIn] = useLoginCardLoginMutation();
  const [error, setError] = useState<string>();
  const { t } = useTranslation('auth');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = window.location.hash.replace(/^#/, '');
    // The secret leaves the address bar (and the history) at once.
    window.history.replaceState(null, '', window.location.pathname);
    if (!token) {
      setError(t('loginCard.unreadable'));
      return;
    }
    signIn({ token })
      .unwrap()
      .then(({ user }) => window.location.assign(homePathAfterSignIn(user)))
      .catch((err: unknown) => setError(serverMessageOr(err, t('loginCard.gone'))));
  }, [signIn, t]);

  return (
    <Container className="py-5" style={{ maxWidth: 460 }}>
      <Card className="shadow-sm">
        <Card.Body className="p-4 text-center">
          <h1 className="h4">{t('loginCard.title')}</h1>
          {error ? (
            <>
              <Alert variant="danger" role="alert">
                {error}
              </Alert>
              <Link to="/auth?mode=class-code">{t('classCode.button')}</Link>
            </>
          ) : (
            <div role="status">
              <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              {t('loginCard.signingIn')}
            </div>
          )}
        </Card.Body>
      </Card>
    </Container>
  );
}
