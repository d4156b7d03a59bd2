// Sign-in from a verified LTI launch (docs/adr/014-lti.md): the internal route integrations calls
// (service token signed by integrations only), finding or creating the account of the launch's
// district (LMS user id first, then a vouched email under SSO's no-takeover rules), and the
// one-time handoff the browser redeems for the session cookies.
import { randomUUID } from 'node:crypto';
import { ServiceTokens } from '@checkpoint/service-kit';
import { TEST_SERVICE_TOKEN_SECRET, testServiceTokens } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, startHarness, type Harness } from './helpers.ts';

let h: Harness;
const integrations = new ServiceTokens(TEST_SERVICE_TOKEN_SECRET, { issuer: 'integrations' });
const ISSUER = 'https://lms.example.org';

beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.stop(), 60_000);

async function district(domain: string): Promise<string> {
  const id = randomUUID();
  await h.db.query(`insert into tenants (id, name, kind, email_domains) values ($1, $2, 'district', $3)`, [
    id,
    `District ${domain}`,
    [domain],
  ]);
  return id;
}

async function member(tenantId: string, email: string, role: string, verified = true): Promise<string> {
  const id = randomUUID();
  await h.db.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role, email_verified_at)
     values ($1, $2, $3, 'Pat', 'Member', $4, $5)`,
    [id, tenantId, email, role, verified ? new Date() : null],
  );
  return id;
}

async function signIn(
  body: Record<string, unknown>,
  headers?: Record<string, string>,
  path = '/internal/lti/sign-in',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are checked with matchers
): Promise<{ status: number; body: any }> {
  const res = await fetch(new URL(path, h.identity.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(headers ?? (await integrations.headers('identity'))) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const launch = (tenantId: string, overrides: Record<string, unknown> = {}) => ({
  tenantId,
  issuer: ISSUER,
  clientId: 'client-1',
  subject: `sub-${randomUUID()}`,
  firstName: 'Lin',
  lastName: 'Learner',
  role: 'student',
  ...overrides,
});

async function redeem(token: string) {
  const browser = new Browser(h.identity.url);
  const res = await browser.request('GET', `/api/auth/lti/handoff?token=${encodeURIComponent(token)}`);
  return { browser, res };
}

describe('LTI sign-in (internal route)', () => {
  it('refuses a call without a service token, with the gateway’s token, or signed by another service', async () => {
    const tenantId = await district('refuse.test');
    expect((await signIn(launch(tenantId), {})).status).toBe(401);
    expect((await signIn(launch(tenantId), { 'x-checkpoint-service-token': 'forged' })).status).toBe(401);
    expect((await signIn(launch(tenantId), await testServiceTokens.headers('identity'))).status).toBe(403);
    const handoff = { tenantId, userId: randomUUID(), returnTo: '/' };
    expect((await signIn(handoff, {}, '/internal/lti/handoffs')).status).toBe(401);
    expect((await signIn(handoff, await testServiceTokens.headers('identity'), '/internal/lti/handoffs')).status).toBe(
      403,
    );
    const other = new ServiceTokens(TEST_SERVICE_TOKEN_SECRET, { issuer: 'class' });
    expect((await signIn(launch(tenantId), await other.headers('identity'))).status).toBe(403);
    const { rows } = await h.db.query('select count(*)::int as n from users where tenant_id = $1', [tenantId]);
    expect(rows[0].n).toBe(0);
  });

  it('creates the account of the district, then finds it by the LMS user id; the handoff signs in once', async () => {
    const tenantId = await district('create.test');
    const first = await signIn(launch(tenantId, { subject: 'lms-user-1', role: 'teacher' }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ outcome: 'created', user: { role: 'teacher', tenantId, firstName: 'Lin' } });
    const { rows } = await h.db.query('select email, email_verified_at from users where id = $1', [first.body.user.id]);
    expect(rows[0].email).toMatch(/^lti-[0-9a-f]{20}@lti\.invalid$/);
    expect(rows[0].email_verified_at).toBeNull();

    const again = await signIn(launch(tenantId, { subject: 'lms-user-1', role: 'student' }));
    expect(again.body).toMatchObject({ outcome: 'found', user: { id: first.body.user.id, role: 'teacher' } });

    const handoffOf = (userId: string, tid = tenantId, returnTo = '/class/abc') =>
      signIn({ tenantId: tid, userId, returnTo }, undefined, '/internal/lti/handoffs');
    // Only an account of the tenant named; never an address off the app.
    expect((await handoffOf(first.body.user.id, randomUUID())).status).toBe(404);
    const offsite = await handoffOf(first.body.user.id, tenantId, 'https://evil.example/x');
    expect((await redeem(offsite.body.handoffToken)).res.headers.get('location')).toBe('/');
    const opened = await handoffOf(first.body.user.id);
    expect(opened.status).toBe(200);
    expect(opened.body.handoffUrl).toMatch(/\/api\/auth\/lti\/handoff\?token=/);
    const { browser, res } = await redeem(opened.body.handoffToken);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/class/abc');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(browser.cookie('cp_session')).toBeDefined();
    const me = await browser.request('GET', '/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: first.body.user.id, role: 'teacher' });

    // Used twice: refused, no cookie.
    const twice = await redeem(opened.body.handoffToken);
    expect(twice.res.status).toBe(302);
    expect(twice.res.headers.get('location')).toBe('/auth?error=lti_handoff_invalid');
    expect(twice.browser.cookie('cp_session')).toBeUndefined();
    expect((await redeem('made-up')).res.headers.get('location')).toBe('/auth?error=lti_handoff_invalid');
  });

  it('links a verified account of the district by an email at its domain; refuses an unverified one (no takeover)', async () => {
    const tenantId = await district('email.test');
    const verified = await member(tenantId, 'teacher@email.test', 'teacher');
    const linked = await signIn(launch(tenantId, { email: 'Teacher@Email.test', role: 'teacher' }));
    expect(linked.body).toMatchObject({ outcome: 'linked', user: { id: verified } });

    await member(tenantId, 'squatted@email.test', 'teacher', false);
    const refused = await signIn(launch(tenantId, { email: 'squatted@email.test' }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('lti_account_not_verified');
    const { rows } = await h.db.query(
      `select count(*)::int as n from lti_identities i join users u on u.id = i.user_id where u.email = 'squatted@email.test'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('never matches another district’s account, nor by an email outside the district’s domains', async () => {
    const a = await district('alpha-lti.test');
    const b = await district('beta-lti.test');
    const inB = await member(b, 'pat@beta-lti.test', 'teacher');
    // A's LMS names B's address: not at A's domains, so not vouched: a new account of A.
    const foreign = await signIn(launch(a, { email: 'pat@beta-lti.test' }));
    expect(foreign.status).toBe(200);
    expect(foreign.body.outcome).toBe('created');
    expect(foreign.body.user.id).not.toBe(inB);
    expect(foreign.body.user.tenantId).toBe(a);

    // The same LMS user id (same issuer) in another district: another account.
    const inA = await signIn(launch(a, { subject: 'shared-sub' }));
    const inBToo = await signIn(launch(b, { subject: 'shared-sub' }));
    expect(inBToo.body.user.id).not.toBe(inA.body.user.id);
    expect(inBToo.body.user.tenantId).toBe(b);

    // An account of A at A's domain... registered in B: wrong district.
    await h.db.query(`update tenants set email_domains = array['alpha-lti.test', 'shared-lti.test'] where id = $1`, [
      a,
    ]);
    await h.db.query(`update tenants set email_domains = array['beta-lti.test', 'shared-lti.test'] where id = $1`, [b]);
    await member(b, 'sam@shared-lti.test', 'teacher');
    const wrong = await signIn(launch(a, { email: 'sam@shared-lti.test' }));
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('lti_wrong_district');
  });

  it('creates a new account with a vouched email as verified; refuses a disabled account and an unknown tenant', async () => {
    const tenantId = await district('new.test');
    const created = await signIn(launch(tenantId, { email: 'new.person@new.test' }));
    const { rows } = await h.db.query('select email, email_verified_at from users where id = $1', [
      created.body.user.id,
    ]);
    expect(rows[0]).toMatchObject({ email: 'new.person@new.test', email_verified_at: expect.any(Date) });

    await h.db.query('update users set disabled_at = now() where id = $1', [created.body.user.id]);
    const disabled = await signIn(launch(tenantId, { subject: created.body.user.id, email: 'new.person@new.test' }));
    expect(disabled.status).toBe(403);
    expect(disabled.body.code).toBe('lti_account_disabled');

    expect((await signIn(launch(randomUUID()))).status).toBe(404);
    expect((await signIn({ ...launch(tenantId), role: 'owner' })).status).toBe(400);
  });
});
