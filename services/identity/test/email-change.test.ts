// Changing the sign-in email (PUT /api/auth/user) and the text of mails a stranger can cause, against
// a real Postgres: re-authentication, a pending address proven by its own link, a notice to the old
// address, district addresses kept for their district, and no stranger's text echoed in a mail.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, signUpByLink, queuedLinkToken, signUpBody, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let districtId: string;
let domain: string;
beforeAll(async () => {
  h = await startHarness();
  districtId = randomUUID();
  domain = `d${randomUUID().slice(0, 8)}.k12.example`;
  await h.db.query(`insert into tenants (id, name, kind, email_domains) values ($1, 'Lakeside', 'district', $2)`, [
    districtId,
    [domain],
  ]);
}, 120_000);
afterAll(async () => {
  await h?.stop();
}, 60_000);

async function signUp(overrides: Record<string, unknown> = {}) {
  const { browser, user, ...body } = await signUpByLink(h, overrides);
  return { browser, body, user };
}

async function mailsTo(email: string): Promise<{ subject: string; text: string; html: string | null }[]> {
  const { rows } = await h.db.query(
    'select subject, text, html from outgoing_mail where "to" = $1 order by created_at asc',
    [email.toLowerCase()],
  );
  return rows;
}

const newAddress = () => `moved.${randomUUID().slice(0, 8)}@example.com`;

describe('changing the sign-in email', () => {
  it('when the email changes without the current password, or with a wrong one, then 400 names currentPassword and nothing changes', async () => {
    const { browser, body } = await signUp();
    const target = newAddress();
    const missing = await browser.request('PUT', '/api/auth/user', { firstName: 'Eve', lastName: 'X', email: target });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.currentPassword).toBe('Enter your current password to change your email');
    const wrong = await browser.request('PUT', '/api/auth/user', {
      firstName: 'Eve',
      lastName: 'X',
      email: target,
      currentPassword: 'not my password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.currentPassword).toBe('Current password is incorrect');
    const me = (await browser.request('GET', '/api/auth/user')).body;
    expect(me).toMatchObject({ email: body.email.toLowerCase(), firstName: 'Ada' });
    expect(me.pendingEmail).toBeUndefined();
    expect(await mailsTo(target)).toEqual([]);
  });

  it('when only the names change, then no password is asked and they change at once', async () => {
    const { browser, body } = await signUp();
    const renamed = await browser.request('PUT', '/api/auth/user', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: body.email,
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { firstName: 'Grace', lastName: 'Hopper', email: body.email.toLowerCase(), pendingEmail: null },
    });
  });

  it('when the email changes with the current password, then it is pending until the link mailed to the new address is opened, and the old address is told', async () => {
    const { browser, body, user } = await signUp();
    const old = body.email.toLowerCase();
    const target = newAddress();
    const asked = await browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: target,
      currentPassword: body.password,
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ email: old, pendingEmail: target });
    expect((await browser.request('GET', '/api/auth/user')).body).toMatchObject({ email: old, pendingEmail: target });

    // Until the link is opened the new address signs nobody in; the old one still does.
    const anyone = new Browser(h.identity.url);
    expect(
      (await anyone.request('POST', '/api/auth/simple-login', { email: target, password: body.password })).status,
    ).toBe(401);
    expect(
      (await anyone.request('POST', '/api/auth/simple-login', { email: old, password: body.password })).status,
    ).toBe(200);

    // The old address: a notice naming the new one, without any link.
    const notices = (await mailsTo(old)).filter((m) => m.subject.includes('sign-in email is being changed'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(target);
    expect(notices[0]!.text).not.toMatch(/token=/);
    expect(notices[0]!.html).not.toMatch(/token=/);

    const token = await queuedLinkToken(h, target);
    const opened = await new Browser(h.identity.url).request('POST', '/api/auth/email/verify', { token });
    expect(opened.status).toBe(200);
    expect(opened.body.user).toMatchObject({ id: user.id, email: target, emailVerified: true });
    const after = (await browser.request('GET', '/api/auth/user')).body;
    expect(after.email).toBe(target);
    expect(after.pendingEmail).toBeUndefined();
    expect(
      (await anyone.request('POST', '/api/auth/simple-login', { email: old, password: body.password })).status,
    ).toBe(401);
    expect(
      (await anyone.request('POST', '/api/auth/simple-login', { email: target, password: body.password })).status,
    ).toBe(200);
    // Used once.
    expect((await anyone.request('POST', '/api/auth/email/verify', { token })).body.code).toBe('invalid_token');
  });

  it('when another account takes the pending address before its link is opened, then the link is void and the other account keeps it', async () => {
    const { browser, body, user } = await signUp();
    const target = newAddress();
    await browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: target,
      currentPassword: body.password,
    });
    const token = await queuedLinkToken(h, target);
    const owner = await signUp({ email: target });
    const opened = await new Browser(h.identity.url).request('POST', '/api/auth/email/verify', { token });
    expect(opened).toMatchObject({ status: 400, body: { code: 'invalid_token' } });
    const { rows } = await h.db.query('select id from users where email = $1', [target]);
    expect(rows).toEqual([{ id: owner.user.id }]);
    expect((await browser.request('GET', '/api/auth/user')).body.email).toBe(body.email.toLowerCase());
    expect(user.id).not.toBe(owner.user.id);
  });

  it("when an account outside a district asks for an address at the district's domain, then 403 district_address, nothing is mailed, and the real owner can still sign up", async () => {
    const { browser, body } = await signUp();
    const superintendent = `superintendent.${randomUUID().slice(0, 6)}@${domain}`;
    const refused = await browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: superintendent,
      currentPassword: body.password,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('district_address');
    expect(refused.body.fields.email).toMatch(/only that district's accounts can use it/);
    expect(await mailsTo(superintendent)).toEqual([]);
    expect((await browser.request('GET', '/api/auth/user')).body.pendingEmail).toBeUndefined();
    // The real owner's sign-up by link still makes their account in the district.
    const owner = await signUpByLink(h, { email: superintendent });
    expect(owner.user).toMatchObject({ tenantId: districtId, accountType: 'district' });
  });

  it("when a district member changes to another address at the district's domain, then the link makes it theirs", async () => {
    const member = await signUpByLink(h, { email: `teacher.${randomUUID().slice(0, 6)}@${domain}` });
    const target = `renamed.${randomUUID().slice(0, 6)}@${domain}`;
    const asked = await member.browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: target,
      currentPassword: member.password,
    });
    expect(asked).toMatchObject({ status: 200, body: { pendingEmail: target } });
    const opened = await new Browser(h.identity.url).request('POST', '/api/auth/email/verify', {
      token: await queuedLinkToken(h, target),
    });
    expect(opened.body.user).toMatchObject({ id: member.user.id, email: target, tenantId: districtId });
  });

  it("when a domain becomes a district's after an outsider asked for an address at it, then the pending link is void", async () => {
    const { browser, body } = await signUp();
    const later = `later${randomUUID().slice(0, 6)}.example`;
    const target = `head@${later}`;
    await browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: target,
      currentPassword: body.password,
    });
    await h.db.query('update tenants set email_domains = email_domains || $2::text where id = $1', [districtId, later]);
    const opened = await new Browser(h.identity.url).request('POST', '/api/auth/email/verify', {
      token: await queuedLinkToken(h, target),
    });
    expect(opened).toMatchObject({ status: 400, body: { code: 'invalid_token' } });
    expect((await browser.request('GET', '/api/auth/user')).body.email).toBe(body.email.toLowerCase());
  });

  it("when the squatter's old trick is tried (change, then the owner opens the mailed link), then the owner's link never verifies the squatter's account", async () => {
    // An ordinary address: the change is pending and the account keeps its own address; the
    // verification link of the squatter's own sign-up cannot verify an address it was not sent to.
    const squatter = await signUp();
    // Its own address not verified yet (an older account): a verification link is on its way to it.
    await h.db.query('update users set email_verified_at = null where id = $1', [squatter.user.id]);
    expect((await squatter.browser.request('POST', '/api/auth/email/resend')).status).toBe(202);
    const victim = newAddress();
    await squatter.browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: victim,
      currentPassword: squatter.body.password,
    });
    const me = (await squatter.browser.request('GET', '/api/auth/user')).body;
    expect(me).toMatchObject({ email: squatter.body.email.toLowerCase(), emailVerified: false });
    const ownLink = await queuedLinkToken(h, squatter.body.email);
    const opened = await new Browser(h.identity.url).request('POST', '/api/auth/email/verify', { token: ownLink });
    expect(opened.body.user.email).toBe(squatter.body.email.toLowerCase());
    expect((await h.db.query('select id from users where email = $1', [victim])).rows).toEqual([]);
  });
});

describe('mails a stranger can cause', () => {
  const LURE = 'Urgent: your account is locked, sign in at http://evil.example';

  it('when someone signs up with a district address and a first name of their choosing, then the mail does not echo it', async () => {
    const email = `nobody.${randomUUID().slice(0, 6)}@${domain}`;
    const asked = await new Browser(h.identity.url).request(
      'POST',
      '/api/auth/simple-signup',
      signUpBody({ email, firstName: LURE, lastName: 'Smith Jr' }),
    );
    expect(asked.status).toBe(202);
    const [message] = await mailsTo(email);
    expect(message).toBeDefined();
    expect(message!.text.startsWith('Hello,')).toBe(true);
    expect(message!.text).not.toContain('Urgent');
    expect(message!.html).not.toContain('Urgent');
    expect(message!.text).not.toContain('Smith Jr');
  });

  it('when someone signs up with any address, registered or not, and a first name of their choosing, then neither mail echoes it', async () => {
    const { body } = await signUp();
    const fresh = newAddress();
    await new Browser(h.identity.url).request('POST', '/api/auth/simple-signup', { ...body, firstName: LURE });
    await new Browser(h.identity.url).request(
      'POST',
      '/api/auth/simple-signup',
      signUpBody({ email: fresh, firstName: LURE }),
    );
    const mails = [...(await mailsTo(body.email)), ...(await mailsTo(fresh))];
    expect(mails.map((m) => m.subject)).toEqual([
      'Finish creating your Checkpoint account',
      'You already have a Checkpoint account',
      'Finish creating your Checkpoint account',
    ]);
    for (const m of mails) {
      expect(m.text).not.toContain('Urgent');
      expect(m.html).not.toContain('Urgent');
    }
  });
});
