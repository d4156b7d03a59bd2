// /auth, /quick-auth and /simple-login: the Sign In and Sign Up tabs and Google sign-in.
import { Link, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { GoogleButton } from '../../components/GoogleButton';
import { JOIN_NEXT, peekPendingJoinCode } from '../joinClass';
import { ClassCodeSignIn } from '../studentLogins';
import { GoogleRoleStep } from './GoogleRoleStep';
import { LoginForm } from './LoginForm';
import { SignInErrorAlert } from './SignInErrorAlert';
import { SignupForm } from './SignupForm';
import { roleFromQuery, type AuthVariant } from './authSchemas';
import { useTranslation } from '../../i18n/react';

type Mode = 'login' | 'signup' | 'class-code';

function modeFromQuery(value: string | null): Mode {
  return value === 'signup' ? 'signup' : value === 'class-code' ? 'class-code' : 'login';
}

export function AuthPage({ variant }: { variant: AuthVariant }) {
  const { t } = useTranslation('auth');
  const [searchParams, setSearchParams] = useSearchParams();
  const mode = modeFromQuery(searchParams.get('mode'));
  const googleSignup = searchParams.get('google_signup') === 'true';
  const defaultRole = variant === 'simple-login' ? '' : roleFromQuery(searchParams.get('role'));

  const selectMode = (next: Mode) => {
    const params = new URLSearchParams(searchParams);
    params.set('mode', next);
    setSearchParams(params, { replace: true });
  };

  return (
    <div className="min-vh-100 bg-body-tertiary d-flex flex-column">
      <header className="py-3">
        <Container>
          <Link to="/" className="navbar-brand fw-bold text-primary fs-4">
            Checkpoint
          </Link>
        </Container>
      </header>
      <main className="flex-grow-1 d-flex align-items-start justify-content-center px-3 pb-5">
        <div className="w-100" style={{ maxWidth: 460 }}>
          <h1 className="h3 text-center mb-1">{t('page.welcome')}</h1>
          <p className="text-center text-body-secondary mb-4">{t('page.tagline')}</p>
          {searchParams.get('next') === JOIN_NEXT && peekPendingJoinCode() && (
            <Alert variant="info" className="small">
              {t('page.joinPending', { code: peekPendingJoinCode() })}
            </Alert>
          )}
          <SignInErrorAlert code={searchParams.get('error')} />
          {googleSignup ? (
            <GoogleRoleStep />
          ) : mode === 'class-code' ? (
            <Card className="shadow-sm">
              <Card.Body className="p-4">
                <ClassCodeSignIn onBack={() => selectMode('login')} />
              </Card.Body>
            </Card>
          ) : (
            <Card className="shadow-sm">
              <Card.Body className="p-4">
                <Tabs
                  id="auth-tabs"
                  activeKey={mode}
                  onSelect={(key) => selectMode(modeFromQuery(key))}
                  className="mb-4"
                  fill
                  mountOnEnter
                  unmountOnExit
                  transition={false}
                >
                  <Tab eventKey="login" title={t('signIn.tab')}>
                    <LoginForm variant={variant} />
                  </Tab>
                  <Tab eventKey="signup" title={t('signUp.tab')}>
                    <SignupForm variant={variant} defaultRole={defaultRole} />
                  </Tab>
                </Tabs>
                <div className="d-flex align-items-center my-3 text-body-secondary small">
                  <hr className="flex-grow-1" />
                  <span className="px-2">{t('common:or')}</span>
                  <hr className="flex-grow-1" />
                </div>
                <GoogleButton />
                {/* Young students without email: class code, name, picture or words (docs/adr/015). */}
                <Button variant="outline-primary" className="w-100 mt-2" onClick={() => selectMode('class-code')}>
                  {t('classCode.button')}
                </Button>
              </Card.Body>
            </Card>
          )}
        </div>
      </main>
    </div>
  );
}

export function AuthRoute() {
  return <AuthPage variant="auth" />;
}
export function QuickAuthRoute() {
  return <AuthPage variant="quick-auth" />;
}
export function SimpleLoginRoute() {
  return <AuthPage variant="simple-login" />;
}
