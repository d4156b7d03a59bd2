// Email verification, password reset and change, against a real Postgres and a real SMTP server
// (the mail catcher): what the service queues is delivered by its sender loop and read back here.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCatcher, type CaughtMail, type MailCatcher } from '@checkpoint/testkit';
import { Browser, signUpBody, signUpByLink, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let mail: MailCatcher;
beforeAll(async () => {
  mail = await startMailCatcher();
  h = await startHarness({ SMTP_URL: mail.url, PUBLIC_URL: 'http://app.test' });
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await mail?.stop();
}, 60_000);

const to = (email: string) => (m: CaughtMail) => m.to.includes(email.toLowerCase());
function tokenIn(m: CaughtMail, path: string): string {
  const link = mail.links(m).find((l) => l.startsWith(`http://app.test${path}?token=`));
  if (!link) throw new Error(`no ${path} link in ${m.text}`);
  return new URL(link).searchParams.get('token')!;
}

async function signUp(overrides: Record<string, unknown> = {}) {
  const { browser, user, ...body } = await signUpByLink(h, overrides);
  return { browser, body, user };
}

const VERIFY_SUBJECT = 'Verify your email for Checkpoint';
const verifyMailTo = (email: string) => (m: CaughtMail) => to(email)(m) && m.subject === VERIFY_SUBJECT;

/**
 * An account whose address is not verified (an account from before sign-ups went by link, or one
 * whose identity provider did not vouch for the address), with the link mailed by "resend".
 */
async function unverifiedAccount() {
  const { browser, body, user } = await signUp();
  await h.db.query('update users set email_verified_at = null where id = $1', [user.id]);
  expect(await browser.request('POST', '/api/auth/email/resend')).toMatchObject({
    status: 202,
    body: { verificationSent: true },
  });
  return { browser, body, user, message: await mail.waitFor(verifyMailTo(body.email)) };
}

describe('email verification', () => {
  it('when a person signs up with a password, then the mailed link creates the account with its address verified, once', async () => {
    const body = signUpBody();
    const asked = await new Browser(h.identity.url).request('POST', '/api/auth/simple-signup', body);
    expect(asked).toMatchObject({ status: 202, body: { verificationSent: true, email: body.email } });
    expect((await h.db.query('select 1 from users where email = $1', [body.email])).rowCount).toBe(0);
    const message = await mail.waitFor(to(body.email));
    expect(message.subject).toBe('Finish creating your Checkpoint account');
    expect(message.text).not.toContain(body.password);
    const token = tokenIn(message, '/verify-email');
    const browser = new Browser(h.identity.url);
    const opened = await browser.request('POST', '/api/auth/email/verify', { token });
    expect(opened).toMatchObject({
      status: 201,
      body: { signedIn: true, user: { email: body.email, emailVerified: true, accountType: 'individual' } },
    });
    expect((await browser.request('GET', '/api/auth/user')).body.emailVerified).toBe(true);
    expect((await new Browser(h.identity.url).request('POST', '/api/auth/email/verify', { token })).status).toBe(400);
  });

  it('when an account’s address is unverified, then the verification link verifies it once', async () => {
    const { browser, body, message } = await unverifiedAccount();
    expect((await browser.request('GET', '/api/auth/user')).body.emailVerified).toBe(false);
    expect(message.subject).toBe('Verify your email for Checkpoint');
    expect(message.text).toContain('This link expires in 24 hours.');
    expect(message.text).toMatch(/ignore this mail/);
    expect(message.html).toContain('http://app.test/verify-email?token=');
    expect(message.text).not.toContain(body.password);
    const token = tokenIn(message, '/verify-email');

    const anyone = new Browser(h.identity.url);
    const verified = await anyone.request('POST', '/api/auth/email/verify', { token });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email: body.email.toLowerCase(), emailVerified: true });
    // A verification link proves the address; it does not sign anybody in.
    expect(anyone.cookie('cp_session')).toBeUndefined();
    expect((await browser.request('GET', '/api/auth/user')).body.emailVerified).toBe(true);

    const again = await anyone.request('POST', '/api/auth/email/verify', { token });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'invalid_token',
      message: expect.stringMatching(/expired or was already used/),
    });
  });

  it('when a link has expired or is made up, then verify answers 400 invalid_token', async () => {
    const { body, message } = await unverifiedAccount();
    const token = tokenIn(message, '/verify-email');
    await h.db.query("update email_tokens set expires_at = now() - interval '1 second' where email = $1", [
      body.email.toLowerCase(),
    ]);
    const b = new Browser(h.identity.url);
    expect((await b.request('POST', '/api/auth/email/verify', { token })).body.code).toBe('invalid_token');
    expect((await b.request('POST', '/api/auth/email/verify', { token: 'x'.repeat(43) })).status).toBe(400);
    const missing = await b.request('POST', '/api/auth/email/verify', {});
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toHaveProperty('token');
  });

  it('when the user asks for a new link, then the old one stops working and the new one verifies', async () => {
    const { browser, body, message } = await unverifiedAccount();
    const first = tokenIn(message, '/verify-email');
    const resend = await browser.request('POST', '/api/auth/email/resend');
    expect(resend).toMatchObject({ status: 202, body: { verificationSent: true } });
    const second = await mail.waitFor((m) => verifyMailTo(body.email)(m) && tokenIn(m, '/verify-email') !== first);
    const b = new Browser(h.identity.url);
    expect((await b.request('POST', '/api/auth/email/verify', { token: first })).status).toBe(400);
    expect(
      (await b.request('POST', '/api/auth/email/verify', { token: tokenIn(second, '/verify-email') })).status,
    ).toBe(200);
    expect(await browser.request('POST', '/api/auth/email/resend')).toMatchObject({
      status: 202,
      body: { verificationSent: false },
    });
    expect((await new Browser(h.identity.url).request('POST', '/api/auth/email/resend')).status).toBe(401);
  });

  it('when a verified user changes their email, then the verified address stays until the link mailed to the new one makes it theirs, verified', async () => {
    const { browser, body } = await signUp();
    const newEmail = `moved.${randomUUID().slice(0, 8)}@example.com`;
    const changed = await browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: newEmail,
      currentPassword: body.password,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      email: body.email.toLowerCase(),
      emailVerified: true,
      pendingEmail: newEmail,
    });
    const message = await mail.waitFor(to(newEmail));
    expect(message.subject).toBe('Confirm your new email for Checkpoint');
    const notice = await mail.waitFor((m) => to(body.email)(m) && m.subject.includes('sign-in email is being changed'));
    expect(mail.links(notice).filter((l) => l.includes('token='))).toEqual([]);
    const token = tokenIn(message, '/verify-email');
    expect((await browser.request('POST', '/api/auth/email/verify', { token })).body.user).toMatchObject({
      email: newEmail,
      emailVerified: true,
    });
  });
});

describe('password reset', () => {
  it('when a user resets their password, then the new one works, the old one not, the address is verified and every session ended', async () => {
    const { browser, body } = await signUp();
    const elsewhere = new Browser(h.identity.url);
    expect((await elsewhere.request('POST', '/api/auth/simple-login', body)).status).toBe(200);

    const forgot = await new Browser(h.identity.url).request('POST', '/api/auth/password/forgot', {
      email: body.email.toUpperCase(),
    });
    expect(forgot).toMatchObject({ status: 202, body: { accepted: true } });
    const message = await mail.waitFor((m) => to(body.email)(m) && m.subject === 'Reset your Checkpoint password');
    expect(message.text).toContain('This link expires in 1 hour.');
    const token = tokenIn(message, '/reset-password');

    const b = new Browser(h.identity.url);
    const tooShort = await b.request('POST', '/api/auth/password/reset', { token, password: '12345' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.fields.password).toBe('Password must be at least 6 characters');
    const reset = await b.request('POST', '/api/auth/password/reset', { token, password: 'a brand new one' });
    expect(reset).toMatchObject({ status: 200, body: { email: body.email.toLowerCase() } });
    expect((await b.request('POST', '/api/auth/password/reset', { token, password: 'another one' })).body.code).toBe(
      'invalid_token',
    );

    expect((await browser.request('GET', '/api/auth/user')).status).toBe(401);
    expect((await elsewhere.request('GET', '/api/auth/user')).status).toBe(401);
    const { rows } = await h.db.query(
      'select count(*)::int as live from sessions s join users u on u.id = s.user_id where u.email = $1 and s.revoked_at is null',
      [body.email.toLowerCase()],
    );
    expect(rows[0].live).toBe(0);
    expect((await b.request('POST', '/api/auth/simple-login', body)).status).toBe(401);
    const login = await b.request('POST', '/api/auth/simple-login', { email: body.email, password: 'a brand new one' });
    expect(login.status).toBe(200);
    expect(login.body.user.emailVerified).toBe(true);
  });

  it('when nobody has the address, then forgot answers the same 202 and no mail is queued', async () => {
    const email = `nobody.${randomUUID().slice(0, 8)}@example.com`;
    const res = await new Browser(h.identity.url).request('POST', '/api/auth/password/forgot', { email });
    expect(res).toMatchObject({ status: 202, body: { accepted: true } });
    const { rows } = await h.db.query('select count(*)::int as n from outgoing_mail where "to" = $1', [email]);
    expect(rows[0].n).toBe(0);
    const bad = await new Browser(h.identity.url).request('POST', '/api/auth/password/forgot', { email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.email).toBe('Please enter a valid email');
  });

  it('when the account is in a district that signs in with its own provider, then the mail says so and carries no reset link', async () => {
    const { body, user } = await signUp();
    const tenantId = randomUUID();
    await h.db.query(
      "insert into tenants (id, name, kind, email_domains, password_sign_in) values ($1, 'Lakeside District', 'district', '{}', false)",
      [tenantId],
    );
    await h.db.query('update users set tenant_id = $1 where id = $2', [tenantId, user.id]);
    await new Browser(h.identity.url).request('POST', '/api/auth/password/forgot', { email: body.email });
    const message = await mail.waitFor((m) => to(body.email)(m) && m.subject === 'Signing in to Checkpoint');
    expect(message.text).toContain('Continue with Lakeside District');
    expect(message.text).not.toContain('/reset-password');
  });

  it('when one address asks for reset mails too often, then 429 with Retry-After', async () => {
    const email = `busy.${randomUUID().slice(0, 8)}@example.com`;
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const res = await new Browser(h.identity.url).request('POST', '/api/auth/password/forgot', { email });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe('change password', () => {
  it('when the current password is right, then the new one works and only the other sessions end', async () => {
    const { browser, body } = await signUp();
    const elsewhere = new Browser(h.identity.url);
    await elsewhere.request('POST', '/api/auth/simple-login', body);

    const wrong = await browser.request('PUT', '/api/auth/password', {
      currentPassword: 'not it at all',
      newPassword: 'changed password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ currentPassword: 'Current password is incorrect' });
    const short = await browser.request('PUT', '/api/auth/password', {
      currentPassword: body.password,
      newPassword: 'abc',
    });
    expect(short.body.fields.newPassword).toBe('Password must be at least 6 characters');

    const ok = await browser.request('PUT', '/api/auth/password', {
      currentPassword: body.password,
      newPassword: 'changed password',
    });
    expect(ok.status).toBe(204);
    expect((await browser.request('GET', '/api/auth/user')).status).toBe(200);
    expect((await elsewhere.request('GET', '/api/auth/user')).status).toBe(401);
    const b = new Browser(h.identity.url);
    expect((await b.request('POST', '/api/auth/simple-login', body)).status).toBe(401);
    expect(
      (await b.request('POST', '/api/auth/simple-login', { email: body.email, password: 'changed password' })).status,
    ).toBe(200);
    expect((await new Browser(h.identity.url).request('PUT', '/api/auth/password', {})).status).toBe(401);
  });
});

describe('sign-up by link', () => {
  it('when a sign-up link is opened, then the account is created in the district, verified and signed in, once', async () => {
    const domain = `district-${randomUUID().slice(0, 8)}.example.org`;
    const tenantId = randomUUID();
    await h.db.query(
      "insert into tenants (id, name, kind, email_domains) values ($1, 'Riverside District', 'district', $2)",
      [tenantId, [domain]],
    );
    const body = signUpBody({ email: `kim@${domain}`, role: 'student' });
    const browser = new Browser(h.identity.url);
    const asked = await browser.request('POST', '/api/auth/simple-signup', body);
    expect(asked).toMatchObject({ status: 202, body: { verificationSent: true } });
    const message = await mail.waitFor(to(body.email));
    expect(message.text).toContain('Riverside District');
    expect(message.text).not.toContain(body.password);

    const opened = await browser.request('POST', '/api/auth/email/verify', {
      token: tokenIn(message, '/verify-email'),
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      signedIn: true,
      user: { email: body.email, tenantId, role: 'student', emailVerified: true },
    });
    expect((await browser.request('GET', '/api/auth/user')).body.id).toBe(opened.body.user.id);
    const again = await new Browser(h.identity.url).request('POST', '/api/auth/email/verify', {
      token: tokenIn(message, '/verify-email'),
    });
    expect(again.body.code).toBe('invalid_token');
    const login = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', body);
    expect(login.status).toBe(200);
  });
});
