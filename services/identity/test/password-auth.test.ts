import { fromBinary, UserRegisteredSchema } from '@checkpoint/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, queuedLinkToken, signUpBody, signUpByLink, startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.stop(), 60_000);

describe('password sign-up and sign-in', () => {
  it('when a user has just signed up, then they are not returning; signed in again later, then they are', async () => {
    const { browser: first, ...body } = await signUpByLink(h, { email: `first.${Date.now()}@example.com` });
    expect((await first.request('GET', '/api/auth/user')).body.returning).toBe(false);

    const again = new Browser(h.identity.url);
    expect((await again.request('POST', '/api/auth/simple-login', body)).status).toBe(200);
    expect((await again.request('GET', '/api/auth/user')).body.returning).toBe(true);
    // The first session is still the first: its dashboard still greets a newcomer.
    expect((await first.request('GET', '/api/auth/user')).body.returning).toBe(false);
  });

  it('when a teacher signs up, logs in, reads their user and logs out, then cookies follow each step', async () => {
    const browser = new Browser(h.identity.url);
    const body = signUpBody({ email: `Grace.${Date.now()}@Example.com` });
    const asked = await browser.request('POST', '/api/auth/simple-signup', body);
    expect(asked).toMatchObject({ status: 202, body: { verificationSent: true, email: body.email.toLowerCase() } });
    expect(asked.headers.getSetCookie()).toEqual([]);
    const signUp = await browser.request('POST', '/api/auth/email/verify', {
      token: await queuedLinkToken(h, body.email),
    });
    expect(signUp.status).toBe(201);
    expect(signUp.body.user).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: body.email.toLowerCase(),
      role: 'teacher',
      accountType: 'individual',
    });
    expect(JSON.stringify(signUp.body)).not.toMatch(/argon2|password/i);
    const setCookies = signUp.headers.getSetCookie().join('\n');
    expect(setCookies).toMatch(/cp_session=[^;]+; Max-Age=900; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax/);
    expect(setCookies).toMatch(/cp_refresh=[^;]+;.*HttpOnly; SameSite=Lax/);
    expect(setCookies).toMatch(/cp_csrf=[^;]+; Max-Age=\d+; Path=\/; Expires=[^;]+; SameSite=Lax/);
    expect(setCookies).not.toMatch(/cp_csrf=[^\n]*HttpOnly/);
    expect(setCookies).not.toMatch(/Secure/);

    const other = new Browser(h.identity.url);
    const login = await other.request('POST', '/api/auth/simple-login', {
      email: body.email.toUpperCase(),
      password: body.password,
    });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(signUp.body.user.id);
    expect(other.cookie('cp_session')).not.toBe(browser.cookie('cp_session'));

    const me = await other.request('GET', '/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: signUp.body.user.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: body.email.toLowerCase(),
      role: 'teacher',
      profileImageUrl: null,
      createdAt: expect.any(String),
      tenantId: signUp.body.user.tenantId,
      accountType: 'individual',
      preferences: { emailNotifications: false, assessmentReminders: false, studentSubmissions: true, darkMode: false },
      // The sign-up link proved the address.
      emailVerified: true,
      // Never chosen, and the request names no language: English.
      locale: 'en',
      // This sign-in follows the sign-up's session: the user has been here before.
      returning: true,
    });

    const session = other.cookie('cp_session')!;
    const logout = await other.request('POST', '/api/auth/logout');
    expect(logout.status).toBe(204);
    expect(logout.headers.getSetCookie().join('\n')).toMatch(/cp_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(other.cookies.size).toBe(0);
    expect((await other.request('GET', '/api/auth/user')).status).toBe(401);
    // The old access token is still signed, but its session has ended.
    const replay = await other.request('GET', '/api/auth/user', undefined, { cookie: `cp_session=${session}` });
    expect(replay.status).toBe(401);
    other.cookies.set('cp_session', { value: session, attributes: '' });
    const stale = await other.request('GET', '/api/auth/user');
    expect(stale).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    // The first browser's session is a different one and still works.
    expect((await browser.request('GET', '/api/auth/user')).status).toBe(200);
  });

  it('when nobody is signed in, then GET user is 401 Unauthorized and logout is still 204', async () => {
    const browser = new Browser(h.identity.url);
    expect(await browser.request('GET', '/api/auth/user')).toMatchObject({
      status: 401,
      body: { message: 'Unauthorized' },
    });
    expect((await browser.request('POST', '/api/auth/logout')).status).toBe(204);
  });

  it('when sign-up fields are invalid, then 400 names each field with the spec texts', async () => {
    const browser = new Browser(h.identity.url);
    const res = await browser.request('POST', '/api/auth/simple-signup', {
      firstName: ' ',
      lastName: '',
      email: 'nope',
      password: '123',
      role: 'admin',
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Invalid email address',
      password: 'Password must be at least 6 characters',
      role: 'Please select a role',
    });
    const long = await browser.request('POST', '/api/auth/simple-signup', signUpBody({ firstName: 'x'.repeat(101) }));
    expect(long).toMatchObject({ status: 400, body: { message: 'First name must be at most 100 characters' } });
    const login = await browser.request('POST', '/api/auth/simple-login', { email: 'bad', password: 'whatever' });
    expect(login).toMatchObject({ status: 400, body: { message: 'Invalid email address' } });
  });

  it('when the email is already registered (any case), then sign-up answers as for a new address and the owner gets a note, not a link', async () => {
    const { user, ...body } = await signUpByLink(h);
    const fresh = signUpBody();
    const [again, other] = await Promise.all([
      new Browser(h.identity.url).request('POST', '/api/auth/simple-signup', {
        ...body,
        email: body.email.toUpperCase(),
      }),
      new Browser(h.identity.url).request('POST', '/api/auth/simple-signup', fresh),
    ]);
    const shape = (res: typeof again) => ({
      status: res.status,
      keys: Object.keys(res.body),
      cookies: res.headers.getSetCookie(),
    });
    expect(shape(again)).toEqual(shape(other));
    expect(again.body).toEqual({ verificationSent: true, email: body.email.toLowerCase() });
    const { rows } = await h.db.query<{ subject: string; text: string }>(
      'select subject, text from outgoing_mail where "to" = $1 order by created_at',
      [body.email.toLowerCase()],
    );
    expect(rows.map((r) => r.subject)).toEqual([
      'Finish creating your Checkpoint account',
      'You already have a Checkpoint account',
    ]);
    expect(rows[1]!.text).not.toMatch(/token=/);
    // Nothing changed on the account: its password is the first one.
    const login = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', body);
    expect(login).toMatchObject({ status: 200, body: { user: { id: user.id } } });
  });

  it('when the password is wrong ten times, then each is 401 and the 11th attempt is 429 with Retry-After', async () => {
    const body = signUpBody();
    await signUpByLink(h, body);
    const unknown = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', {
      email: 'nobody@example.com',
      password: 'whatever',
    });
    expect(unknown).toMatchObject({ status: 401, body: { message: 'Invalid email or password' } });
    const attacker = new Browser(h.identity.url);
    for (let i = 0; i < 10; i++) {
      const res = await attacker.request('POST', '/api/auth/simple-login', {
        email: body.email,
        password: `wrong-${i}`,
      });
      expect(res).toMatchObject({ status: 401, body: { message: 'Invalid email or password' } });
    }
    const blocked = await attacker.request('POST', '/api/auth/simple-login', {
      email: body.email,
      password: body.password,
    });
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(blocked.body.message).toBe(`Too many sign-in attempts. Please wait ${retryAfter} seconds and try again.`);
    // The attacker's failures do not lock the owner out: from another address the password works...
    const owner = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', {
      email: body.email,
      password: body.password,
    });
    expect(owner.status).toBe(200);
    // ...while the attacker's address stays throttled for this account; others signing in from the
    // same address (a school behind one address) are not concerned.
    expect(
      (await attacker.request('POST', '/api/auth/simple-login', { email: body.email, password: body.password })).status,
    ).toBe(429);
    const classmate = signUpBody();
    await signUpByLink(h, classmate);
    expect(
      (
        await attacker.request('POST', '/api/auth/simple-login', {
          email: classmate.email,
          password: classmate.password,
        })
      ).status,
    ).toBe(200);
  }, 60_000);

  it('when many accounts are tried from one address, then the address has a ceiling (ten times the per-account limit)', async () => {
    const strict = await h.start({ PORT: '0', RATE_LIMIT_LOGIN_PER_MINUTE: '1' });
    try {
      const address = `10.${Math.floor(Math.random() * 250)}.79.1`;
      for (let i = 0; i < 10; i++) {
        const res = await new Browser(strict.url, address).request('POST', '/api/auth/simple-login', {
          email: `guess-${i}@example.com`,
          password: 'wrong-password',
        });
        expect(res.status).toBe(401);
      }
      const eleventh = await new Browser(strict.url, address).request('POST', '/api/auth/simple-login', {
        email: 'guess-10@example.com',
        password: 'wrong-password',
      });
      expect(eleventh.status).toBe(429);
    } finally {
      await strict.stop();
    }
  }, 60_000);

  it('when one account is tried from many addresses past its ceiling, then the attackers are throttled but the owner still signs in from an untouched address', async () => {
    // One attempt a minute per address: the account's ceiling is ten.
    const strict = await h.start({ PORT: '0', RATE_LIMIT_LOGIN_PER_MINUTE: '1' });
    try {
      const body = signUpBody();
      await signUpByLink(h, body);
      const subnet = Math.floor(Math.random() * 250);
      const login = (host: string, password: string) =>
        new Browser(strict.url, `10.${subnet}.77.${host}`).request('POST', '/api/auth/simple-login', {
          email: body.email,
          password,
        });
      for (let i = 0; i < 10; i++) expect((await login(String(i), `wrong-${i}`)).status).toBe(401);
      // Past the ceiling a wrong password is refused with 429, even from a new address...
      const guess = await login('100', 'wrong-again');
      expect(guess.status).toBe(429);
      expect(Number(guess.headers.get('retry-after'))).toBeGreaterThan(0);
      // ...and an address that has tried is not checked again, not even with the right password.
      expect((await login('100', body.password)).status).toBe(429);
      expect((await login('3', body.password)).status).toBe(429);
      // The owner, from an address that has not failed, is not locked out.
      const owner = await login('200', body.password);
      expect(owner.status).toBe(200);
      expect(owner.body.user.email).toBe(body.email.toLowerCase());
      // Other accounts from a fresh address are not concerned.
      const other = signUpBody();
      await signUpByLink(h, other);
      const fine = await new Browser(strict.url, `10.${subnet}.78.1`).request('POST', '/api/auth/simple-login', {
        email: other.email,
        password: other.password,
      });
      expect(fine.status).toBe(200);
    } finally {
      await strict.stop();
    }
  }, 60_000);

  it('when 12 addresses send 9 wrong passwords each for one account, then its owner still signs in from another address', async () => {
    const body = signUpBody();
    await signUpByLink(h, body);
    const subnet = Math.floor(Math.random() * 250);
    const login = (host: number, password: string) =>
      new Browser(h.identity.url, `10.${subnet}.79.${host}`).request('POST', '/api/auth/simple-login', {
        email: body.email,
        password,
      });
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async (_, host) => {
        const seen: number[] = [];
        for (let i = 0; i < 9; i++) seen.push((await login(host, `wrong-${host}-${i}`)).status);
        return seen;
      }),
    );
    // The account's ceiling (100) was reached: the last attempts were refused.
    expect(statuses.flat()).toContain(429);
    expect((await login(3, body.password)).status).toBe(429);
    expect((await login(200, body.password)).status).toBe(200);
  }, 120_000);

  it('when a user changes their profile over and over, then the 11th change in a minute is 429 with Retry-After, and other users go on', async () => {
    const ip = `10.98.${Math.floor(Math.random() * 250)}.1`;
    const browser = new Browser(h.identity.url, ip);
    const { user } = await signUpByLink(h, {}, browser);
    const change = (b: Browser, i: number) =>
      b.request('PUT', '/api/auth/user', { firstName: `Ada${i}`, lastName: 'King', email: user.email });
    for (let i = 0; i < 10; i++) expect((await change(browser, i)).status).toBe(200);
    const blocked = await change(browser, 10);
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(blocked.body.message).toBe(`Too many profile changes. Please wait ${retryAfter} seconds and try again.`);
    // Nothing was written by the refused change.
    expect((await browser.request('GET', '/api/auth/user')).body.firstName).toBe('Ada9');
    // Another user behind the same address is not concerned (the per-address limit is three times higher).
    const neighbour = new Browser(h.identity.url, ip);
    const mine = signUpBody();
    await signUpByLink(h, mine, neighbour);
    const renamed = await neighbour.request('PUT', '/api/auth/user', {
      firstName: 'Bo',
      lastName: 'B',
      email: mine.email,
    });
    expect(renamed).toMatchObject({ status: 200, body: { firstName: 'Bo' } });
  }, 60_000);

  it('when many accounts of one address probe emails through profile changes, then the address is throttled', async () => {
    // One change a minute per user, three per address.
    const strict = await h.start({ PORT: '0', RATE_LIMIT_PROFILE_PER_MINUTE: '1' });
    try {
      const ip = `10.97.${Math.floor(Math.random() * 250)}.1`;
      const taken = signUpBody();
      await signUpByLink(h, taken);
      const probe = { firstName: 'Eve', lastName: 'Probe', email: taken.email };
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const account = new Browser(strict.url, ip);
        const own = signUpBody();
        await signUpByLink(h, own, account);
        // An email change needs the account's own password (an account of the prober's).
        statuses.push(
          (await account.request('PUT', '/api/auth/user', { ...probe, currentPassword: own.password })).status,
        );
      }
      // The taken email is not told (the change is pending as for any address), and the address
      // that probes is throttled all the same.
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await strict.stop();
    }
  }, 60_000);

  it('when a classroom signs in from one IP, then successful sign-ins do not use up the IP limit', async () => {
    const ip = '10.99.0.1';
    const accounts = [];
    for (let i = 0; i < 12; i++) accounts.push(signUpBody({ role: 'student' }));
    for (const a of accounts) await signUpByLink(h, a);
    for (const a of accounts) {
      const res = await new Browser(h.identity.url, ip).request('POST', '/api/auth/simple-login', {
        email: a.email,
        password: a.password,
      });
      expect(res.status).toBe(200);
    }
  }, 60_000);

  it('when a user signs up, then UserRegistered with their data is in the outbox, keyed by user id', async () => {
    const body = signUpBody({ role: 'student' });
    const reply = await signUpByLink(h, body);
    const rows = await h.db.query('select key, type, tenant_id, payload, headers from outbox where key = $1', [
      reply.user.id,
    ]);
    expect(rows.rows).toHaveLength(1);
    const row = rows.rows[0];
    expect(row.type).toBe('checkpoint.identity.v1.UserRegistered');
    expect(row.tenant_id).toBe(reply.user.tenantId);
    expect(row.headers).toMatchObject({ ce_source: 'identity', ce_type: 'checkpoint.identity.v1.UserRegistered' });
    const event = fromBinary(UserRegisteredSchema, row.payload);
    expect(event).toMatchObject({
      userId: reply.user.id,
      tenantId: reply.user.tenantId,
      email: body.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'student',
    });
  });

  it('when the email domain belongs to a district, then no account until the mailed link is opened, which joins that tenant; otherwise a new individual one', async () => {
    const tenantId = '6f1c7b0e-1111-4a4a-9a9a-000000000001';
    await h.db.query(
      `insert into tenants (id, name, kind, email_domains) values ($1, 'Springfield', 'district', '{springfield.k12.us}')`,
      [tenantId],
    );
    const email = `x${Date.now()}@springfield.k12.us`;
    const browser = new Browser(h.identity.url);
    const asked = await browser.request('POST', '/api/auth/simple-signup', signUpBody({ email }));
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ verificationSent: true, email });
    expect(browser.cookie('cp_session')).toBeUndefined();
    expect((await h.db.query('select id from users where email = $1', [email])).rows).toEqual([]);
    const opened = await browser.request('POST', '/api/auth/email/verify', { token: await queuedLinkToken(h, email) });
    expect(opened.status).toBe(201);
    const a = opened;
    expect(a.body.user).toMatchObject({ tenantId, accountType: 'district', email });
    const b = await signUpByLink(h);
    const c = await signUpByLink(h);
    expect(b.user.accountType).toBe('individual');
    expect(b.user.tenantId).not.toBe(c.user.tenantId);
  });

  it('when the user changes profile and preferences, then they persist and UserUpdated is emitted', async () => {
    const browser = new Browser(h.identity.url);
    const taken = signUpBody();
    await signUpByLink(h, taken);
    const mine = signUpBody();
    const { user } = await signUpByLink(h, mine, browser);
    const prefs = { emailNotifications: false, assessmentReminders: true, studentSubmissions: false, darkMode: true };
    // Two changes to different switches sent together both land: each writes only its own key.
    const [reminders, dark] = await Promise.all([
      browser.request('PATCH', '/api/auth/user/preferences', { assessmentReminders: true }),
      browser.request('PATCH', '/api/auth/user/preferences', { darkMode: true }),
    ]);
    expect([reminders.status, dark.status]).toEqual([200, 200]);
    const change = await browser.request('PATCH', '/api/auth/user/preferences', { studentSubmissions: false });
    expect(change).toMatchObject({ status: 200, body: { preferences: prefs } });
    const empty = await browser.request('PATCH', '/api/auth/user/preferences', {});
    expect(empty).toMatchObject({ status: 400, body: { message: 'Send at least one preference' } });
    for (const [bad, field] of [
      [{ darkMode: 'yes' }, 'darkMode'],
      [{ darkMode: false, theme: 'dark' }, 'theme'],
    ] as const) {
      const refused = await browser.request('PATCH', '/api/auth/user/preferences', bad);
      expect(refused.status).toBe(400);
      expect(refused.body.fields).toHaveProperty(field);
    }
    expect((await browser.request('GET', '/api/auth/user')).body.preferences).toEqual(prefs);

    // Another account's address: answered as any change (pending), never told; that address gets a
    // "you already have an account" note and no link, so it can never move here.
    const taking = await browser.request('PUT', '/api/auth/user', {
      firstName: 'A',
      lastName: 'B',
      email: taken.email,
      currentPassword: mine.password,
    });
    expect(taking).toMatchObject({ status: 200, body: { email: mine.email.toLowerCase(), pendingEmail: taken.email } });
    const note = await h.db.query<{ subject: string; text: string }>(
      'select subject, text from outgoing_mail where "to" = $1 order by created_at desc limit 1',
      [taken.email],
    );
    expect(note.rows[0]!.subject).toBe('You already have a Checkpoint account');
    expect(note.rows[0]!.text).not.toMatch(/token=/);
    const newEmail = `renamed.${Date.now()}@example.com`;
    const updated = await browser.request('PUT', '/api/auth/user', {
      firstName: 'Augusta',
      lastName: 'King',
      email: newEmail,
      currentPassword: mine.password,
    });
    // The names change at once; the address waits for the link mailed to it (email-change.test.ts).
    expect(updated).toMatchObject({
      status: 200,
      body: {
        firstName: 'Augusta',
        lastName: 'King',
        email: mine.email.toLowerCase(),
        pendingEmail: newEmail,
        preferences: prefs,
      },
    });
    const events = await h.db.query(`select type from outbox where key = $1 order by created_at`, [user.id]);
    // The two notification switches' changes are published (the digest acts on them), dark mode is
    // not, then the two profile changes.
    expect(events.rows.map((r) => r.type)).toEqual([
      'checkpoint.identity.v1.UserRegistered',
      'checkpoint.identity.v1.UserUpdated',
      'checkpoint.identity.v1.UserUpdated',
      'checkpoint.identity.v1.UserUpdated',
      'checkpoint.identity.v1.UserUpdated',
    ]);
    expect(
      (
        await new Browser(h.identity.url).request('PUT', '/api/auth/user', {
          firstName: 'A',
          lastName: 'B',
          email: newEmail,
        })
      ).status,
    ).toBe(401);
  });
});
