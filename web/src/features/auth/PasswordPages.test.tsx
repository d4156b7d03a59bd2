// Forgot / reset password, verify email, the unverified banner and Profile "Change Password".
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import { Toaster } from '../../components/toast/Toaster';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { STUDENT, stubFetch, TEACHER } from '../../test/fetchStub';
import { ChangePasswordModal } from '../profile';
import { AuthPage } from './AuthPage';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { LINK_GONE, ResetPasswordPage } from './ResetPasswordPage';
import { VerifyEmailBanner } from '../../session/VerifyEmailBanner';
import { VerifyEmailPage } from './VerifyEmailPage';

function Where() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as Record<string, unknown>;

describe('sign-in form', () => {
  it('when the sign-in form shows, then "Forgot password?" leads to /forgot-password', async () => {
    const { user } = renderWithProviders(
      <Routes>
        <Route path="/auth" element={<AuthPage variant="auth" />} />
        <Route path="/forgot-password" element={<Where />} />
      </Routes>,
      { route: '/auth?mode=login' },
    );
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/forgot-password');
  });
});

describe('ForgotPasswordPage', () => {
  it('when the email is not valid, then "Please enter a valid email" shows and nothing is sent', async () => {
    const fetchMock = stubFetch({});
    const { user } = renderWithProviders(<ForgotPasswordPage />);
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('when the request is sent, then the confirmation names the address without saying whether it has an account', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({ 'POST /api/auth/password/forgot': () => jsonResponse(202, { accepted: true }) });
    const { user } = renderWithProviders(<ForgotPasswordPage />);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('If an account exists for ada@example.com');
    expect(bodyOf(fetchMock.mock.calls[0]![1])).toEqual({ email: 'ada@example.com' });
  });
});

describe('ResetPasswordPage', () => {
  const renderPage = (query: string) =>
    renderWithProviders(
      <>
        <Routes>
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/auth" element={<Where />} />
        </Routes>
        <Toaster />
      </>,
      { route: `/reset-password${query}` },
    );

  it('when the passwords differ or are short, then the sign-up messages show', async () => {
    stubFetch({});
    const { user } = renderPage('?token=tok');
    await user.type(screen.getByLabelText('New Password'), '12345');
    await user.type(screen.getByLabelText('Confirm Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('New Password'));
    await user.type(screen.getByLabelText('New Password'), 'secret12');
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'secret13');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
  });

  it('when the new password is set, then the sign-in page opens with a toast', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      'POST /api/auth/password/reset': () => jsonResponse(200, { email: 'ada@example.com' }),
    });
    const { user } = renderPage('?token=tok');
    await user.type(screen.getByLabelText('New Password'), 'secret12');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret12');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth?mode=login'));
    expect((await screen.findAllByText('Password updated'))[0]).toBeInTheDocument();
    expect(bodyOf(fetchMock.mock.calls[0]![1])).toEqual({ token: 'tok', password: 'secret12' });
  });

  it('when the link was used or expired, then its message shows with a way to ask for a new one', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({
      'POST /api/auth/password/reset': () => jsonResponse(400, { code: 'invalid_token', message: LINK_GONE }),
    });
    const { user } = renderPage('?token=old');
    await user.type(screen.getByLabelText('New Password'), 'secret12');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret12');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(/This link has expired or was already used/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
  });
});

describe('VerifyEmailPage', () => {
  it('when a verification link is opened, then it is posted once and the page says the address is verified', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      'POST /api/auth/email/verify': () =>
        jsonResponse(200, { user: { ...TEACHER, emailVerified: true }, signedIn: false }),
    });
    renderWithProviders(
      <Routes>
        <Route path="/verify-email" element={<VerifyEmailPage />} />
      </Routes>,
      { route: '/verify-email?token=abc' },
    );
    expect(await screen.findByText(/is verified\./)).toHaveTextContent('Your email ada@example.com is verified.');
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(bodyOf(posts[0]![1])).toEqual({ token: 'abc' });
  });

  it('when a sign-up link is opened with a join code waiting in the tab, then the account is announced and the class joined', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    sessionStorage.setItem('checkpoint.pendingJoinCode', 'ABC123');
    const fetchMock = stubFetch({
      'POST /api/auth/email/verify': () => jsonResponse(201, { user: STUDENT, signedIn: true }),
      'POST /api/classes/join': () => jsonResponse(200, { className: 'Biology', classId: 'c1' }),
      'GET /api/auth/user': () => jsonResponse(200, STUDENT),
    });
    renderWithProviders(
      <Routes>
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/" element={<Where />} />
      </Routes>,
      { route: '/verify-email?token=abc' },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Account created successfully! Logging you in...');
    expect(await screen.findByTestId('location', {}, { timeout: 3000 })).toHaveTextContent('/');
    const join = fetchMock.mock.calls.find(([url]) => String(url) === '/api/classes/join');
    expect(bodyOf(join?.[1])).toEqual({ joinCode: 'ABC123' });
    expect(sessionStorage.getItem('checkpoint.pendingJoinCode')).toBeNull();
  });

  it('when the link is spent, then the server message shows', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({
      'POST /api/auth/email/verify': () =>
        jsonResponse(400, { code: 'invalid_token', message: 'This link has expired or was already used. X' }),
    });
    renderWithProviders(
      <Routes>
        <Route path="/verify-email" element={<VerifyEmailPage />} />
      </Routes>,
      { route: '/verify-email?token=abc' },
    );
    expect(await screen.findByText(/This link has expired or was already used\. X/)).toBeInTheDocument();
  });
});

describe('VerifyEmailBanner', () => {
  it('when the address is not verified, then "Resend link" asks for a new mail', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      'POST /api/auth/email/resend': () => jsonResponse(202, { verificationSent: true }),
    });
    const { user } = renderWithProviders(
      <VerifyEmailBanner user={{ email: 'ada@example.com', emailVerified: false }} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Please verify your email address');
    await user.click(screen.getByRole('button', { name: 'Resend link' }));
    expect(await screen.findByRole('button', { name: 'Link sent' })).toBeDisabled();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/auth/email/resend')).toBe(true);
  });

  it('when the address is verified, then no banner shows', () => {
    stubFetch({});
    renderWithProviders(<VerifyEmailBanner user={{ email: 'ada@example.com', emailVerified: true }} />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('ChangePasswordModal', () => {
  it('when the current password is wrong, then the message shows under it; when right, the modal closes with a toast', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    let answer = jsonResponse(400, {
      code: 'validation_failed',
      message: 'Current password is incorrect',
      fields: { currentPassword: 'Current password is incorrect' },
    });
    const fetchMock = stubFetch({ 'PUT /api/auth/password': () => answer });
    let closed = 0;
    const { user } = renderWithProviders(
      <>
        <ChangePasswordModal show onClose={() => closed++} />
        <Toaster />
      </>,
    );
    await user.type(screen.getByLabelText('Current Password'), 'wrong-one');
    await user.type(screen.getByLabelText('New Password'), 'secret12');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret12');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(bodyOf(fetchMock.mock.calls[0]![1])).toEqual({ currentPassword: 'wrong-one', newPassword: 'secret12' });

    answer = new Response(null, { status: 204 });
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect((await screen.findAllByText('Password changed'))[0]).toBeInTheDocument();
    expect(closed).toBe(1);
  });
});
