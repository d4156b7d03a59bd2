import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { LoginForm } from './LoginForm';
import { homePathAfterSignIn } from '../../session/user';

describe('homePathAfterSignIn', () => {
  it('when an admin signs in, then they land on /admin; anyone else on /', () => {
    expect(homePathAfterSignIn({ role: 'admin' })).toBe('/admin');
    expect(homePathAfterSignIn({ role: 'teacher' })).toBe('/');
    expect(homePathAfterSignIn({ role: 'student' })).toBe('/');
  });
});

describe('LoginForm', () => {
  const assign = vi.fn();
  afterEach(() => {
    vi.unstubAllGlobals();
    assign.mockReset();
  });

  for (const [who, role, path] of [
    ['an admin', 'admin', '/admin'],
    ['a teacher', 'teacher', '/'],
  ] as const) {
    it(`when ${who} signs in, then the browser loads ${path}`, async () => {
      vi.stubGlobal('location', { ...window.location, assign });
      stubFetch({
        'POST /api/auth/simple-login': () => jsonResponse(200, { user: { ...TEACHER, role } }),
      });
      const { user } = renderWithProviders(<LoginForm variant="auth" />);
      await user.type(screen.getByLabelText('Email'), 'someone@example.test');
      await user.type(screen.getByLabelText('Password'), 'secret-pass');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith(path));
    });
  }
});
