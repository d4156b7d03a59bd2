// The operator's `lti list|add|remove|link` (services/integrations/src/cli/lti.command.ts) on a real
// database: a district's registrations added by hand with the admin API's checks (fields, egress
// rules, one issuer and client id), listed, removed; a one-time dynamic registration link for the
// district; every mistake in the arguments refused with the option named and nothing changed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLtiCommand } from '../src/cli/lti.command.ts';
import { actor, call, platformRegistration, startIntegrationsService, type Harness } from './helpers.ts';

let h: Harness;

beforeAll(async () => {
  h = await startIntegrationsService();
});
afterAll(async () => {
  await h?.stop();
});

async function run(args: string[], env: Record<string, string> = {}) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runLtiCommand(
    args,
    { DATABASE_URL: h.serviceDbUrl, PUBLIC_URL: 'https://checkpoint.test', ...env },
    { log: (l) => lines.push(l), error: (l) => errors.push(l) },
  );
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

const addArgs = (district: string, r = platformRegistration({ deploymentIds: ['1', '2'] })) => [
  'add',
  '--district',
  district,
  '--issuer',
  r.issuer,
  '--client-id',
  r.clientId,
  '--deployment-ids',
  r.deploymentIds.join(','),
  '--jwks-url',
  r.jwksUrl,
  '--auth-url',
  r.authorizationUrl,
  '--token-url',
  r.tokenUrl,
];

describe('lti (operator CLI)', () => {
  it('when asked for --help, then it prints the usage and exits 0; without an action, 1', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/npm run lti -- list/);
    expect((await run(['add', '--help'])).code).toBe(0);
    const none = await run([]);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/no action given/);
    expect((await run(['frobnicate', '--district', randomUUID()])).err).toMatch(/unknown action frobnicate/);
  });

  it('when the operator adds a registration, then the district admin sees it; list shows it; remove takes it away', async () => {
    const district = randomUUID();
    const r = platformRegistration({ deploymentIds: ['1', '2'] });
    const added = await run(addArgs(district, r));
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    expect(added.out).toContain(`client id       ${r.clientId}`);
    const seen = (await call(h, actor('admin', district), 'GET', '/api/integrations/lti/registrations')).body;
    expect(seen.registrations).toEqual([expect.objectContaining({ ...r, deploymentIds: ['1', '2'] })]);
    const id = seen.registrations[0].id as string;

    const list = await run(['list', '--district', district]);
    expect(list.code).toBe(0);
    expect(list.out).toContain(`Registration ${id}:`);
    expect(list.out).toContain('login URL       https://checkpoint.test/api/lti/login');
    expect(list.out).toContain('redirect URL    https://checkpoint.test/api/lti/launch');
    expect((await run(['list', '--district', randomUUID()])).out).toMatch(/no LTI registrations/);

    // Another district cannot remove it; its own can.
    const elsewhere = await run(['remove', '--district', randomUUID(), '--registration', id]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.err).toMatch(/No such LTI registration/);
    const removed = await run(['remove', '--district', district, '--registration', id]);
    expect(removed.code).toBe(0);
    expect(
      (await call(h, actor('admin', district), 'GET', '/api/integrations/lti/registrations')).body.registrations,
    ).toEqual([]);
  });

  it('when the arguments are wrong, then the option is named and nothing is stored', async () => {
    const district = randomUUID();
    const badDistrict = await run(['list', '--district', 'springfield.example.org']);
    expect(badDistrict.code).toBe(1);
    expect(badDistrict.err).toMatch(/--district must be the district's id/);

    const missing = await run(['add', '--district', district, '--issuer', 'https://lms.example.org']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/add needs --client-id, --deployment-ids, --jwks-url, --auth-url, --token-url/);

    const args = addArgs(district);
    args[args.indexOf('--jwks-url') + 1] = 'http://10.0.0.1/jwks';
    const privateUrl = await run(args);
    expect(privateUrl.code).toBe(1);
    expect(privateUrl.err).toMatch(/--jwks-url: /);

    const twice = addArgs(district);
    twice[twice.indexOf('--deployment-ids') + 1] = 'a,a';
    expect((await run(twice)).err).toMatch(/--deployment-ids: A deployment id is listed twice/);

    expect((await run(['remove', '--district', district])).err).toMatch(/remove needs --registration/);
    expect((await run(['list', '--district', district, '--issuer', 'x'])).err).toMatch(/--issuer only go with add/);
    expect((await run(['list', '--district', district, '--bogus'])).code).toBe(1);
    const { rows } = await h.sql.query('select 1 from lti_registrations where tenant_id = $1', [district]);
    expect(rows).toEqual([]);

    const first = addArgs(district);
    expect((await run(first)).code).toBe(0);
    const again = await run(first);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/--client-id: Already registered for this issuer/);
  });

  it('when the operator asks for a link, then it prints a one-time dynamic registration URL of the district with its expiry', async () => {
    const district = randomUUID();
    const done = await run(['link', '--district', district], { LTI_REGISTRATION_LINK_TTL_SECONDS: '3600' });
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/used once, until \d{4}-\d\d-\d\dT/);
    const url = done.out.split('\n')[1]!;
    expect(url).toMatch(/^https:\/\/checkpoint\.test\/api\/lti\/register\?rt=[\w-]{43}$/);
    const { rows } = await h.sql.query<{ ttl: number }>(
      'select extract(epoch from expires_at - now())::int as ttl from lti_registration_links where tenant_id = $1',
      [district],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ttl).toBeLessThanOrEqual(3600);
    expect(rows[0]!.ttl).toBeGreaterThan(3500);
  });
});
