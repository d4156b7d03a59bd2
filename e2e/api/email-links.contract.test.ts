// Email verification, password reset and change through the gateway (the all-in-one), with the
// mail read from a real SMTP server: single-use links, no account enumeration, and a reset that
// ends every session of the account, a copied access cookie included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, eventually, linkMailedTo, signUp, startBackend, type Backend } from './helpers.ts';

let backend: Backend;
beforeAll(async () => {
  backend = await startBackend();
}, 180_000);
afterAll(() => backend?.stop(), 60_000);

const PASSWORD = 'correct horse battery';

describe('email verification', () => {
  it('when a new user signs up through the mailed link, then GET user says emailVerified, and the link works once', async () => {
    const user = await signUp(backend.url, 'teacher');
    expect((await user.get('/api/auth/user')).body.emailVerified).toBe(true);
    const { url, token } = await linkMailedTo(backend.mail, user.user!.email);
    expect(url.pathname).toBe('/verify-email');
    const again = await new Client(backend.url).post('/api/auth/email/verify', { token });
    expect(again).toMatchObject({ status: 400, body: { code: 'invalid_token' } });
  });
});

describe('password reset', () => {
  it('when a user resets their password, then every session ends at the gateway, a copied access cookie included', async () => {
    const user = await signUp(backend.url, 'teacher');
    const email = user.user!.email;
    const copied = `cp_session=${encodeURIComponent(user.cookies.get('cp_session')!)}`;
    const withCopy = () => fetch(`${backend.url}/api/classes`, { headers: { cookie: copied } });
    expect((await withCopy()).status).toBe(200);

    const anon = new Client(backend.url);
    expect(await anon.post('/api/auth/password/forgot', { email })).toMatchObject({
      status: 202,
      body: { accepted: true },
    });
    const { url, token } = await linkMailedTo(backend.mail, email, '/reset-password');
    expect(url.pathname).toBe('/reset-password');
    expect((await anon.post('/api/auth/password/reset', { token, password: 'a new password' })).status).toBe(200);

    // The class service trusts the gateway alone: the gateway must have learnt of the revocation.
    const refused = await eventually(withCopy, (r) => r.status === 401, 10_000);
    expect(refused.status).toBe(401);
    expect((await user.get('/api/auth/user')).status).toBe(401);
    expect((await new Client(backend.url).post('/api/auth/simple-login', { email, password: PASSWORD })).status).toBe(
      401,
    );
    const login = await new Client(backend.url).post('/api/auth/simple-login', { email, password: 'a new password' });
    expect(login.status).toBe(200);
    expect(login.body.user.emailVerified).toBe(true);
    expect((await anon.post('/api/auth/password/reset', { token, password: 'third password' })).body.code).toBe(
      'invalid_token',
    );
  });

  it('when the address has no account, then the answer is the same 202 and nothing is mailed to it', async () => {
    const email = `nobody.${Date.now().toString(36)}@example.com`;
    const res = await new Client(backend.url).post('/api/auth/password/forgot', { email });
    expect(res).toMatchObject({ status: 202, body: { accepted: true } });
    // A mail to someone else queued after this one arrives, so this one would have too.
    const other = await signUp(backend.url, 'student');
    await linkMailedTo(backend.mail, other.user!.email);
    expect(backend.mail.messages().filter((m) => m.to.includes(email))).toEqual([]);
  });
});

describe('change password', () => {
  it('when the signed-in user changes the password, then other sessions end and this one stays', async () => {
    const user = await signUp(backend.url, 'student');
    const email = user.user!.email;
    const other = new Client(backend.url);
    expect((await other.post('/api/auth/simple-login', { email, password: PASSWORD })).status).toBe(200);

    const wrong = await user.put('/api/auth/password', { currentPassword: 'wrong one', newPassword: 'new password' });
    expect(wrong).toMatchObject({
      status: 400,
      body: { fields: { currentPassword: 'Current password is incorrect' } },
    });
    const ok = await user.put('/api/auth/password', { currentPassword: PASSWORD, newPassword: 'new password' });
    expect(ok.status).toBe(204);
    expect((await user.get('/api/auth/user')).status).toBe(200);
    expect(
      (
        await eventually(
          () => other.get('/api/classes'),
          (r) => r.status === 401,
          10_000,
        )
      ).status,
    ).toBe(401);
  });
});
