import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { AuthRoute } from './AuthPage';

afterEach(() => {
  vi.restoreAllMocks();
});

async function fill(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.type(screen.getByLabelText('First Name'), 'Lia');
  await user.type(screen.getByLabelText('Last Name'), 'Young');
  await user.type(screen.getByLabelText('Email'), 'lia@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.type(screen.getByLabelText('Confirm Password'), 'secret1');
}

describe('sign-up asks a student their age band (docs/adr/015)', () => {
  it('when a student gives no age band, then "Please select your age" shows and nothing is sent', async () => {
    const fetch = stubFetch({});
    const { user } = renderWithProviders(<AuthRoute />, { route: '/auth?mode=signup' });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Please select your age')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('when a student is under 13, then they are told to ask their teacher for a login card, and the server refusal shows', async () => {
    const fetch = stubFetch({
      'POST /api/auth/simple-signup': () =>
        jsonResponse(403, {
          code: 'under_13_needs_teacher',
          message: 'Students under 13 do not sign up with an email. Ask your teacher for a login card.',
        }),
    });
    const { user } = renderWithProviders(<AuthRoute />, { route: '/auth?mode=signup' });
    await fill(user);
    await user.click(screen.getByLabelText('Under 13'));
    expect(screen.getByRole('status')).toHaveTextContent('Ask your teacher for a login card');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({ role: 'student', ageBand: 'under_13' });
    expect(await screen.findByText(/do not sign up with an email/)).toBeInTheDocument();
  });

  it('when a teacher signs up, then no age is asked nor sent', async () => {
    stubFetch({});
    const { user } = renderWithProviders(<AuthRoute />, { route: '/auth?mode=signup&role=teacher' });
    await user.click(screen.getByLabelText('Teacher'));
    expect(screen.queryByText('How old are you?')).not.toBeInTheDocument();
  });
});
