import Button from 'react-bootstrap/Button';

export const GOOGLE_SIGN_IN_PATH = '/api/auth/google';

/** Google sign-in is a browser navigation, not a fetch: the gateway redirects to Google and back. */
export function GoogleButton() {
  return (
    <Button
      variant="outline-secondary"
      className="w-100"
      type="button"
      onClick={() => window.location.assign(GOOGLE_SIGN_IN_PATH)}
    >
      Continue with Google
    </Button>
  );
}
