// District membership on the web (docs/security.md): a sign-up at a district's domain answers 202
// and the form says "Check your email" instead of signing in; 403 shows the district's message;
// /accept-invitation reads the invitation and creates the account.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { AcceptInvitationPage } from './AcceptInvitationPage';

const INVITATION_GONE = 'This invitation has expired or was already used. Ask your district admin for a new one.';
import { AuthPage } from './AuthPage';

function renderSignup() {
  return renderWithProviders(
    <Routes>
      <Route path="/auth" element={<AuthPage variant="auth" />} />
    </Routes>,
    { route: '/auth?mode=signup' },
  );
}

async function fillSignup(user: ReturnType<typeof renderSignup>['user'], email: string) {
  await user.type(screen.getByLabelText('First Name'), 'Ada');
  await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.type(screen.getByLabelText('Confirm Password'), 'secret1');
  // A student (preselected) says their age band.
  await user.click(screen.getByLabelText('13 or older'));
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('sign-up at a district domain', () => {
  it('when the answer is 202, then "Check your email" shows the address and no sign-in happens', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({
      'POST /api/auth/simple-signup': () =>
        jsonResponse(202, { verificationSent: true, email: 'ada@demo.checkpoint.school' }),
    });
    const { user } = renderSignup();
    await fillSignup(user, 'Ada@demo.checkpoint.school');
    const sent = await screen.findByRole('status', { name: 'Check your email' });
    expect(sent).toHaveTextContent('Check your email');
    expect(sent).toHaveTextContent('ada@demo.checkpoint.school');
    expect(sent).toHaveTextContent('open the link we sent to finish creating your account');
    expect(screen.queryByText('Account created successfully! Logging you in...')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Account' })).not.toBeInTheDocument();
  });

  it('when the district turned password sign-in off (403), then its message shows', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const message =
      'Northwind Schools signs in with its own provider. Use “Continue with Northwind Schools” on the sign-in page.';
    stubFetch({
      'POST /api/auth/simple-signup': () => jsonResponse(403, { code: 'password_sign_in_disabled', message }),
    });
    const { user } = renderSignup();
    await fillSignup(user, 'kid@northwind.example.org');
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Signup Failed');
    expect(toast).toHaveTextContent(message);
  });
});

describe('AcceptInvitationPage', () => {
  const renderPage = (query: string) =>
    renderWithProviders(
      <Routes>
        <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
      </Routes>,
      { route: `/accept-invitation${query}` },
    );

  it('when the invitation is valid, then the district and the read-only email show, and the form sends names and password', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      'GET /api/auth/invitations/tok123': () =>
        jsonResponse(200, { email: 'ivy@example.org', districtName: 'Demo District', role: 'teacher' }),
      'POST /api/auth/invitations/accept': () =>
        jsonResponse(409, {
          code: 'email_taken',
          message: 'An account with this email already exists. Sign in with it instead.',
        }),
    });
    const { user } = renderPage('?token=tok123');
    expect(await screen.findByRole('heading', { name: 'Join Demo District' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('ivy@example.org');
    expect(email).toHaveAttribute('readonly');

    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();

    await user.type(screen.getByLabelText('First Name'), 'Ivy');
    await user.type(screen.getByLabelText('Last Name'), 'Invited');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret2');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('An account with this email already exists. Sign in with it instead.');
    const accept = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/auth/invitations/accept'));
    expect(JSON.parse(String(accept?.[1]?.body))).toEqual({
      token: 'tok123',
      firstName: 'Ivy',
      lastName: 'Invited',
      password: 'secret1',
    });
  });

  it('when the invitation is unknown, used or expired (404), then the page says so', async () => {
    stubFetch({});
    renderPage('?token=gone');
    await waitFor(() => expect(screen.getByText(INVITATION_GONE, { exact: false })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
  });
});
