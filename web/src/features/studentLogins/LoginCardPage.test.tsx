import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { LoginCardPage } from './LoginCardPage';

const STUDENT = { ...TEACHER, id: 's1', firstName: 'Maya', lastName: 'Rivera', email: '', role: 'student' as const };
const assign = vi.fn();

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  assign.mockReset();
});

describe('LoginCardPage', () => {
  it("posts the card's secret from the address's fragment and loads the student's home", async () => {
    vi.stubGlobal('location', { ...window.location, hash: '#card-secret', pathname: '/login-card', assign });
    const fetch = stubFetch({ 'POST /api/auth/login-card': () => jsonResponse(200, { user: STUDENT }) });
    renderWithProviders(<LoginCardPage />, { route: '/login-card' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    const post = fetch.mock.calls.find(([url]) => String(url) === '/api/auth/login-card');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ token: 'card-secret' });
  });

  it('a revoked or expired card says to ask the teacher for a new one', async () => {
    vi.stubGlobal('location', { ...window.location, hash: '#old', pathname: '/login-card', assign });
    stubFetch({
      'POST /api/auth/login-card': () =>
        jsonResponse(403, { message: 'This login card no longer works. Ask your teacher for a new card.' }),
    });
    renderWithProviders(<LoginCardPage />, { route: '/login-card' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Ask your teacher for a new card');
    expect(screen.getByRole('link', { name: 'Sign in with class code' })).toHaveAttribute(
      'href',
      '/auth?mode=class-code',
    );
  });
});
