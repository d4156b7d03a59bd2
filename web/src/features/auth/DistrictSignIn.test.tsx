import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { AuthPage } from './AuthPage';

function renderAuth(query = '') {
  return renderWithProviders(
    <Routes>
      <Route path="/auth" element={<AuthPage variant="auth" />} />
    </Routes>,
    { route: `/auth${query}` },
  );
}

describe('district sign-in on the sign-in page', () => {
  it("when a district address is typed, then the district's button appears", async () => {
    stubFetch({
      'GET /api/auth/sso?email=kim%40district.org': () =>
        jsonResponse(200, {
          provider: { name: 'Springfield Schools', startUrl: '/api/auth/google?login_hint=kim%40district.org' },
          passwordSignIn: false,
        }),
    });
    const { user } = renderAuth();
    await user.type(screen.getByLabelText('Email'), 'kim@district.org');
    expect(await screen.findByRole('button', { name: 'Continue with Springfield Schools' })).toBeInTheDocument();
    expect(screen.getByText(/Your district signs in with its own provider/)).toBeInTheDocument();
  });

  it('when another address is typed, then no district button appears', async () => {
    const fetchMock = stubFetch({
      'GET /api/auth/sso?email=kim%40example.com': () => jsonResponse(200, { provider: null, passwordSignIn: true }),
    });
    const { user } = renderAuth();
    await user.type(screen.getByLabelText('Email'), 'kim@example.com');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: /Continue with (?!Google)/ })).not.toBeInTheDocument();
  });

  it('when the provider sign-in came back refused, then the reason is shown in a sentence', () => {
    renderAuth('?error=account_not_verified');
    expect(screen.getByTestId('sign-in-error')).toHaveTextContent(
      'An account with this email already exists but its address has not been verified.',
    );
  });

  it('when too many sign-ins were started from one network, then the page says to wait', () => {
    renderAuth('?error=too_many_attempts');
    expect(screen.getByTestId('sign-in-error')).toHaveTextContent('Please wait a minute and try again.');
  });

  it('when an LMS sign-in link was used twice or expired, then the page says to open Checkpoint from the LMS again', () => {
    renderAuth('?error=lti_handoff_invalid');
    expect(screen.getByTestId('sign-in-error')).toHaveTextContent('Open Checkpoint again from your course in the LMS.');
  });

  it('when the error code is unknown, then a general sentence is shown', () => {
    renderAuth('?error=something_else');
    expect(screen.getByTestId('sign-in-error')).toHaveTextContent('Sign-in with your provider did not work.');
  });
});
