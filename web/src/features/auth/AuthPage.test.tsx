import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { AuthPage } from './AuthPage';
import type { AuthVariant } from './authSchemas';

function renderAuth(variant: AuthVariant, query = '') {
  const path = variant === 'auth' ? '/auth' : `/${variant}`;
  return renderWithProviders(
    <Routes>
      <Route path={path} element={<AuthPage variant={variant} />} />
    </Routes>,
    { route: `${path}${query}` },
  );
}

describe('AuthPage', () => {
  it('when the mode query is missing, then the login tab is shown', () => {
    renderAuth('auth');
    expect(screen.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('when login is submitted empty, then the email and password messages show', async () => {
    const { user } = renderAuth('auth');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
  });

  it('when sign-up on /auth is submitted empty, then every field message shows', async () => {
    const { user } = renderAuth('auth', '?mode=signup');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
  });

  it('when the confirmation differs, then "Passwords don\'t match" shows on the confirm field', async () => {
    const { user } = renderAuth('quick-auth', '?mode=signup');
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret2');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    const message = await screen.findByText("Passwords don't match");
    expect(message).toHaveAttribute('id', 'signup-confirm-password-error');
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('when quick-auth has role=teacher, then Teacher is preselected; otherwise Student', () => {
    renderAuth('quick-auth', '?mode=signup&role=teacher');
    expect(screen.getByLabelText('Teacher')).toBeChecked();
  });

  it('when /auth sign-up opens without a role, then Student is preselected', () => {
    renderAuth('auth', '?mode=signup');
    expect(screen.getByLabelText('Student')).toBeChecked();
  });

  it('when simple-login sign-up has no role and a bad email, then "Please select a role" and "Please enter a valid email" show', async () => {
    const { user } = renderAuth('simple-login', '?mode=signup');
    expect(screen.queryByLabelText('Confirm Password')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Please select a role')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
  });

  it('when the login is refused, then the Login Failed toast shows the server message', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({
      'POST /api/auth/simple-login': () => jsonResponse(401, { message: 'Invalid email or password', code: 'INVALID' }),
    });
    const { user } = renderAuth('auth');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Login Failed');
    expect(toast).toHaveTextContent('Invalid email or password');
  });

  it('when the login fails without a server message, then the fallback shows', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({ 'POST /api/auth/simple-login': () => new Response('', { status: 502, statusText: 'Bad Gateway' }) });
    const { user } = renderAuth('auth');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please check your credentials');
  });

  it('when sign-up is refused, then the Signup Failed toast shows the server message', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const TOO_MANY = 'Too many sign-up attempts. Please wait 30 seconds and try again.';
    stubFetch({
      'POST /api/auth/simple-signup': () => jsonResponse(429, { message: TOO_MANY, code: 'too_many_requests' }),
    });
    const { user } = renderAuth('auth', '?mode=signup');
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret1');
    // A student (preselected) says their age band.
    await user.click(screen.getByLabelText('13 or older'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Signup Failed');
    expect(toast).toHaveTextContent(TOO_MANY);
  });

  it('when simple-login sign-up is sent, then "Check your email" names the address and nobody is signed in', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      'POST /api/auth/simple-signup': () => jsonResponse(202, { verificationSent: true, email: 'ada@example.com' }),
    });
    const { user } = renderAuth('simple-login', '?mode=signup');
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-12');
    await user.click(screen.getByLabelText('Teacher'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    const sent = await screen.findByRole('status', { name: 'Check your email' });
    expect(sent).toHaveTextContent(
      'We sent a link to ada@example.com: open the link we sent to finish creating your account.',
    );
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/auth/simple-signup']);
    const body = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: 'secret-12',
      role: 'teacher',
      locale: 'en',
    });
  });

  it('when google_signup=true, then the role step shows with Student preselected', () => {
    renderAuth('auth', '?google_signup=true');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Student')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Complete Setup' })).toBeInTheDocument();
  });

  it('when Google completion fails, then the Setup Failed toast shows', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      'POST /api/auth/google/complete': () => new Response('', { status: 500, statusText: 'Oops' }),
    });
    const { user } = renderAuth('auth', '?google_signup=true');
    await user.click(screen.getByLabelText('Teacher'));
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Setup Failed');
    expect(toast).toHaveTextContent('Please try again');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ role: 'teacher' });
  });
});
