// The sign-in page's "Sign in with class code" (students without email, docs/adr/015).
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { AuthRoute } from './AuthPage';

const STUDENT = { ...TEACHER, id: 's1', firstName: 'Maya', lastName: 'Rivera', email: '', role: 'student' as const };
const assign = vi.fn();

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  assign.mockReset();
});

describe('Sign in with class code', () => {
  it('the student types the code, picks their name (first name and last initial) and their picture', async () => {
    vi.stubGlobal('location', { ...window.location, assign });
    let tries = 0;
    const fetch = stubFetch({
      'POST /api/auth/class-code': () =>
        jsonResponse(200, {
          students: [
            { id: 's1', name: 'Maya R.' },
            { id: 's2', name: 'Leo P.' },
          ],
        }),
      'POST /api/auth/class-code/login': () =>
        ++tries === 1
          ? jsonResponse(401, { message: 'That is not your picture or words. Try again, or ask your teacher.' })
          : jsonResponse(200, { user: STUDENT }),
    });
    const { user } = renderWithProviders(<AuthRoute />, { route: '/auth' });
    await user.click(screen.getByRole('button', { name: 'Sign in with class code' }));
    await user.type(screen.getByLabelText('Class code'), 'abc123');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Maya R.' }));
    expect(screen.getByRole('heading', { name: 'Hi Maya R.!' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'dog' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That is not your picture or words');
    await user.click(screen.getByRole('button', { name: 'cat' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    const logins = fetch.mock.calls.filter(([url]) => String(url) === '/api/auth/class-code/login');
    expect(JSON.parse(String(logins.at(-1)?.[1]?.body))).toEqual({
      classCode: 'abc123',
      studentId: 's1',
      secret: { kind: 'picture', picture: 'cat' },
    });
  });

  it('an unknown class code says so; too many tries say to wait', async () => {
    stubFetch({
      'POST /api/auth/class-code': () =>
        jsonResponse(404, { message: 'No class has this code. Check the code with your teacher.' }),
    });
    const { user } = renderWithProviders(<AuthRoute />, { route: '/auth?mode=class-code' });
    await user.type(screen.getByLabelText('Class code'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No class has this code');
  });

  it('a student types their two words', async () => {
    vi.stubGlobal('location', { ...window.location, assign });
    const fetch = stubFetch({
      'POST /api/auth/class-code': () => jsonResponse(200, { students: [{ id: 's1', name: 'Maya R.' }] }),
      'POST /api/auth/class-code/login': () =>
        jsonResponse(429, { message: 'Too many tries. Please wait 15 minutes, or ask your teacher for help.' }),
    });
    const { user } = renderWithProviders(<AuthRoute />, { route: '/auth?mode=class-code' });
    await user.type(screen.getByLabelText('Class code'), 'ABC123');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Maya R.' }));
    await user.type(screen.getByLabelText('Or type your two words'), 'red kite');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many tries. Please wait 15 minutes');
    const login = fetch.mock.calls.find(([url]) => String(url) === '/api/auth/class-code/login');
    expect(JSON.parse(String(login?.[1]?.body))).toMatchObject({ secret: { kind: 'words', words: 'red kite' } });
    expect(assign).not.toHaveBeenCalled();
  });
});
