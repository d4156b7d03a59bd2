import { describe, expect, it } from 'vitest';
import { makeStore } from '../app/store';
import { authApi } from '../session/authApi';
import { generatedApi } from './generated/endpoints';
import { jsonResponse } from '../test/test-utils';
import { stubFetch, TEACHER } from '../test/fetchStub';
import { readCookie } from './baseQuery';

describe('readCookie', () => {
  it('when the cookie is present among others, then its decoded value is returned', () => {
    expect(readCookie('cp_csrf', 'a=1; cp_csrf=abc%3D%3D; b=2')).toBe('abc==');
    expect(readCookie('cp_csrf', 'a=1')).toBeUndefined();
  });
});

describe('appBaseQuery', () => {
  it('when a write is sent, then it carries the CSRF cookie as X-CSRF-Token and includes credentials', async () => {
    document.cookie = 'cp_csrf=token-123; path=/';
    const fetchMock = stubFetch({ 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.logout.initiate());
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect((init?.headers as Record<string, string>)['X-CSRF-Token']).toBe('token-123');
  });

  it('when a read is sent, then it has no CSRF header but includes credentials', async () => {
    document.cookie = 'cp_csrf=token-123; path=/';
    const fetchMock = stubFetch({ 'GET /api/auth/user': () => jsonResponse(200, TEACHER) });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.getCurrentUser.initiate());
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect((init?.headers as Record<string, string>)['X-CSRF-Token']).toBeUndefined();
  });

  it('when the current user answers 401, then the user is null and no toast is shown', async () => {
    stubFetch({ 'GET /api/auth/user': () => jsonResponse(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }) });
    const store = makeStore();
    const result = await store.dispatch(authApi.endpoints.getCurrentUser.initiate());
    expect(result.data).toBeNull();
    expect(result.isError).toBe(false);
    expect(store.getState().toast.current).toBeNull();
    expect(store.getState().auth.redirectToAuthRequestedAt).toBeNull();
  });

  it('when another call answers 401 Unauthorized, then the Unauthorized toast shows and /auth is requested', async () => {
    stubFetch({ 'GET /api/classes': () => jsonResponse(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }) });
    const store = makeStore();
    const result = await store.dispatch(generatedApi.endpoints.getClasses.initiate());
    expect(result.error).toMatchObject({ status: 401, serverMessage: 'Unauthorized' });
    expect(store.getState().toast.current).toMatchObject({
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
      variant: 'destructive',
    });
    expect(store.getState().auth.redirectToAuthRequestedAt).not.toBeNull();
  });

  it('when a login answers 401 with a credentials message, then it is a plain error (no redirect)', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({
      'POST /api/auth/simple-login': () => jsonResponse(401, { message: 'Invalid email or password', code: 'INVALID' }),
    });
    const store = makeStore();
    const result = await store.dispatch(authApi.endpoints.login.initiate({ email: 'a@b.co', password: 'secret1' }));
    expect(result.error).toMatchObject({ status: 401, serverMessage: 'Invalid email or password' });
    expect(store.getState().auth.redirectToAuthRequestedAt).toBeNull();
  });

  it('when the network fails, then the error has status 0', async () => {
    stubFetch({ 'GET /api/classes': () => Promise.reject(new TypeError('Failed to fetch')) });
    const store = makeStore();
    const result = await store.dispatch(generatedApi.endpoints.getClasses.initiate());
    expect(result.error).toMatchObject({ status: 0, message: '0: Failed to fetch' });
  });
});
