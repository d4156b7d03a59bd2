// Why a sign-in through a provider came back refused: `/auth?error=<code>` (never a JSON page).
import Alert from 'react-bootstrap/Alert';
import { signInErrorText } from './ssoApi';

export function SignInErrorAlert({ code }: { code: string | null }) {
  const text = signInErrorText(code);
  if (!text) return null;
  return (
    <Alert variant="warning" className="small" role="alert" data-testid="sign-in-error">
      {text}
    </Alert>
  );
}
