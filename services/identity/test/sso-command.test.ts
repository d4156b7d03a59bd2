// `npm run sso -- …` as an operator runs it (a child process) against a real Postgres and a real
// local OpenID provider: the same checks as the admin API, the secret sealed at rest.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';
import { startLocalProvider, type LocalProvider } from './local-oidc-provider.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const SECRETS_KEY = randomBytes(32).toString('base64');

function sso(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/identity/src/cli/sso.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: h.serviceUrl, SECRETS_KEY, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let h: Harness;
let provider: LocalProvider;
const tenantId = randomUUID();

beforeAll(async () => {
  h = await startHarness({ SECRETS_KEY });
  provider = await startLocalProvider({ redirectUri: 'http://localhost:8080/api/auth/google/callback' });
  await h.db.query(
    `insert into tenants (id, name, kind, email_domains) values ($1, 'Delta Schools', 'district', '{delta.test,delta-staff.test}')`,
    [tenantId],
  );
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await provider?.stop();
}, 60_000);

// Each run starts a process with tsx: slow on a busy machine.
describe('npm run sso', { timeout: 180_000 }, () => {
  it('when the operator sets a connection, then it is saved with the secret sealed, and show prints it without the secret', async () => {
    const set = await sso(
      [
        'set',
        '--district',
        'delta.test',
        '--issuer',
        provider.issuer,
        '--client-id',
        provider.clientId,
        '--domains',
        'delta.test',
      ],
      { SSO_CLIENT_SECRET: provider.clientSecret },
    );
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Saved the SSO connection of Delta Schools.');
    const row = await h.db.query(`select client_secret, email_domains from sso_connections where tenant_id = $1`, [
      tenantId,
    ]);
    expect(row.rows[0].client_secret).toMatch(/^v1:/);
    expect(row.rows[0].client_secret).not.toContain(provider.clientSecret);
    expect(row.rows[0].email_domains).toEqual(['delta.test']);
    const show = await sso(['show', '--district', 'delta.test']);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(provider.issuer);
    expect(show.stdout).toContain('stored (encrypted)');
    expect(show.stdout).not.toContain(provider.clientSecret);
  });

  it('when the operator gives a bad issuer, an unknown district or no action, then it exits 1 and says why', async () => {
    const bad = await sso([
      'set',
      '--district',
      'delta.test',
      '--issuer',
      'https://login.microsoftonline.com/common/v2.0',
      '--client-id',
      'x',
      '--client-secret',
      'y',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('issuer');
    const unknown = await sso(['show', '--district', 'nowhere.test']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no district or school owns the email domain nowhere.test');
    const none = await sso([]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Usage:');
  });

  it('when the operator turns password sign-in off and removes the connection, then the order is enforced', async () => {
    expect((await sso(['password-sign-in', 'off', '--district', 'delta.test'])).code).toBe(0);
    const refused = await sso(['remove', '--district', 'delta.test']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Turn password sign-in on first');
    expect((await sso(['password-sign-in', 'on', '--district', 'delta.test'])).code).toBe(0);
    const removed = await sso(['remove', '--district', 'delta.test']);
    expect(removed.stdout).toContain('Removed the SSO connection of Delta Schools.');
    expect((await h.db.query(`select 1 from sso_connections where tenant_id = $1`, [tenantId])).rowCount).toBe(0);
  });
});
