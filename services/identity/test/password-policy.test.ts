// Which passwords may be set (docs/security.md, finding 4): six characters for students (the spec's rule),
// eight for teachers and admins, and no common or breached password for anyone, on sign-up,
// password change, reset and invitation acceptance. Real Postgres and a real SMTP catcher.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCatcher, type CaughtMail, type MailCatcher } from '@checkpoint/testkit';
import { hashPassword } from '../src/domain/password.ts';
import { Browser, signUpBody, signUpByLink, startHarness, type Harness } from './helpers.ts';

const COMMON = 'This password is too common. Choose one that is harder to guess.';
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
  const link = mail.links(m).find((l) => l.includes(`${path}?token=`));
  if (!link) throw new Error(`no ${path} link in ${m.text}`);
  return new URL(link).searchParams.get('token')!;
}

async function signUp(overrides: Record<string, unknown>) {
  return new Browser(h.identity.url).request('POST', '/api/auth/simple-signup', signUpBody(overrides));
}

describe('password rules', () => {
  it('when a teacher signs up with 7 characters or a common password, then 400 names the password; 8 uncommon ones are accepted', async () => {
    const short = await signUp({ role: 'teacher', password: 'gq7#mzw' });
    expect(short.status).toBe(400);
    expect(short.body.fields).toEqual({ password: 'Password must be at least 8 characters' });
    for (const password of ['password', '12345678', 'Password123', 'qwertyuiop']) {
      const res = await signUp({ role: 'teacher', password });
      expect(res.status, password).toBe(400);
      expect(res.body.fields, password).toEqual({ password: COMMON });
    }
    expect((await signUp({ role: 'teacher', password: 'gq7#mzw2' })).status).toBe(202);
  });

  it('when a student signs up, then six uncommon characters are enough but 123456 and password are refused', async () => {
    expect((await signUp({ role: 'student', password: 'gq7#mz' })).status).toBe(202);
    const tooShort = await signUp({ role: 'student', password: 'gq7#m' });
    expect(tooShort.body.fields).toEqual({ password: 'Password must be at least 6 characters' });
    for (const password of ['123456', 'password', 'monkey']) {
      const res = await signUp({ role: 'student', password });
      expect(res.status, password).toBe(400);
      expect(res.body.fields, password).toEqual({ password: COMMON });
    }
  });

  it('when a teacher changes their password to a common or short one, then 400 names newPassword and the old one still works', async () => {
    const { browser, ...body } = await signUpByLink(h, { role: 'teacher' });
    const common = await browser.request('PUT', '/api/auth/password', {
      currentPassword: body.password,
      newPassword: 'iloveyou',
    });
    expect(common.status).toBe(400);
    expect(common.body.fields).toEqual({ newPassword: COMMON });
    const short = await browser.request('PUT', '/api/auth/password', {
      currentPassword: body.password,
      newPassword: 'gq7#mzw',
    });
    expect(short.body.fields).toEqual({ newPassword: 'Password must be at least 8 characters' });
    expect((await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', body)).status).toBe(200);
  });

  it('when a reset link sets a common password, then 400 names the password and the link still sets a good one', async () => {
    const body = await signUpByLink(h, { role: 'student' });
    await new Browser(h.identity.url).request('POST', '/api/auth/password/forgot', { email: body.email });
    const message = await mail.waitFor((m) => to(body.email)(m) && m.subject === 'Reset your Checkpoint password');
    const token = tokenIn(message, '/reset-password');
    const b = new Browser(h.identity.url);
    const common = await b.request('POST', '/api/auth/password/reset', { token, password: 'abc123' });
    expect(common.status).toBe(400);
    expect(common.body.fields).toEqual({ password: COMMON });
    expect((await b.request('POST', '/api/auth/password/reset', { token, password: 'gq7#mz' })).status).toBe(200);
  });

  it('when an invited admin accepts with a common or 7-character password, then 400 names the password and the invitation stays open', async () => {
    const tenantId = randomUUID();
    const domain = `pp-${tenantId.slice(0, 8)}.example.org`;
    await h.db.query(
      `insert into tenants (id, name, kind, email_domains) values ($1, 'Policy District', 'district', $2)`,
      [tenantId, [domain]],
    );
    const adminId = randomUUID();
    const adminEmail = `boss.${adminId.slice(0, 6)}@${domain}`;
    await h.db.query(
      `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Bo', 'Ss', 'admin')`,
      [adminId, tenantId, adminEmail],
    );
    await h.db.query(`insert into credentials (user_id, password_hash) values ($1, $2)`, [
      adminId,
      await hashPassword('gq7#mzw2 admin'),
    ]);
    const admin = new Browser(h.identity.url);
    expect(
      (await admin.request('POST', '/api/auth/simple-login', { email: adminEmail, password: 'gq7#mzw2 admin' })).status,
    ).toBe(200);
    const email = `new.admin.${adminId.slice(0, 6)}@${domain}`;
    expect((await admin.request('POST', '/api/district/invitations', { email, role: 'admin' })).status).toBe(202);
    const message = await mail.waitFor(to(email));
    const link = mail.links(message).find((l) => l.includes('token='))!;
    const token = new URL(link).searchParams.get('token')!;
    const b = new Browser(h.identity.url);
    const accept = (password: string) =>
      b.request('POST', '/api/auth/invitations/accept', { token, firstName: 'New', lastName: 'Admin', password });
    const common = await accept('sunshine');
    expect(common.status).toBe(400);
    expect(common.body.fields).toEqual({ password: COMMON });
    expect((await accept('gq7#mzw')).body.fields).toEqual({ password: 'Password must be at least 8 characters' });
    expect((await accept('gq7#mzw2')).status).toBe(201);
  });
});
