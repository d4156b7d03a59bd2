// The district's own sign-in button: shown once the typed email is at a district with an SSO
// connection (GET /api/auth/sso, asked after typing pauses).
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useLookUpSsoQuery } from './ssoApi';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PAUSE_MS = 400;

/** The email after typing paused, when it looks like an address. */
function useSettledEmail(email: string): string | undefined {
  const [settled, setSettled] = useState<string | undefined>(undefined);
  useEffect(() => {
    const trimmed = email.trim().toLowerCase();
    const timer = setTimeout(() => setSettled(EMAIL.test(trimmed) ? trimmed : undefined), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [email]);
  return settled;
}

export function DistrictSignIn({ email }: { email: string }) {
  const settled = useSettledEmail(email);
  const { data } = useLookUpSsoQuery(settled ?? '', { skip: !settled });
  if (!settled || !data) return null;
  return (
    <div className="mb-3" data-testid="district-sign-in">
      {data.provider && (
        <Button
          variant="primary"
          className="w-100"
          type="button"
          onClick={() => window.location.assign(data.provider!.startUrl)}
        >
          Continue with {data.provider.name}
        </Button>
      )}
      {!data.passwordSignIn && (
        <Alert variant="info" className="small mt-2 mb-0">
          Your district signs in with its own provider{data.provider ? ': use the button above.' : '.'}
        </Alert>
      )}
    </div>
  );
}
