// District SSO in the browser (docs/security.md, "District SSO"): the operator connects the demo
// district to a local OpenID provider (`npm run sso`); a person types a district address on the
// sign-in page, the district's button appears, they sign in at the provider's own pages, choose
// their role once, and land signed in on /.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from '@playwright/test';
import { test } from './helpers';
import { account, startLocalProvider, type LocalProvider } from '../../services/identity/test/local-oidc-provider';

const DISTRICT_DOMAIN = 'demo.checkpoint.school';
const root = path.resolve(import.meta.dirname, '..', '..');

/** `npm run sso -- …` against the all-in-one's database (DATA_DIR of the Playwright web server). */
function sso(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/identity/src/cli/sso.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let provider: LocalProvider | undefined;

test.describe('district SSO', () => {
  // The operator command needs the web server's data dir (not known for an app running elsewhere).
  test.skip(!process.env.E2E_DATA_DIR || Boolean(process.env.E2E_BASE_URL), 'needs the local all-in-one');
  test.setTimeout(180_000);

  test.afterAll(async () => {
    await sso(['remove', '--district', DISTRICT_DOMAIN]);
    await provider?.stop();
  });

  test('when a district address is typed on the sign-in page, then the district button signs in at the district provider and lands on /', async ({
    page,
    baseURL,
  }) => {
    // The app's PUBLIC_URL (the redirect URI's origin) is http://localhost:<port>: the flow cookie
    // must be set on that origin too.
    const appUrl = baseURL!.replace('127.0.0.1', 'localhost');
    provider = await startLocalProvider({
      redirectUri: `${appUrl}/api/auth/google/callback`,
      clientId: 'e2e-demo-district',
      autoLogin: false,
    });
    const set = await sso(
      [
        'set',
        '--district',
        DISTRICT_DOMAIN,
        '--issuer',
        provider.issuer,
        '--client-id',
        provider.clientId,
        '--name',
        'Demo District',
      ],
      { SSO_CLIENT_SECRET: provider.clientSecret, PUBLIC_URL: appUrl },
    );
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    const person = account(DISTRICT_DOMAIN, { given_name: 'Kim', family_name: 'Provider' });
    provider.next = person;

    await page.goto(`${appUrl}/auth`);
    await page.getByLabel('Email').fill(person.email);
    const button = page.getByRole('button', { name: 'Continue with Demo District' });
    await expect(button).toBeVisible();
    await button.click();

    // The provider's own pages: its login form, then its consent.
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill(person.sub);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    // First time: the role step, then signed in on /.
    await expect(page).toHaveURL(/\/auth\?google_signup=true$/);
    await page.getByLabel('Teacher').check();
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await expect(page).toHaveURL(new RegExp(`^${appUrl}/$`));
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    const me = await page.request.get(`${appUrl}/api/auth/user`);
    expect(await me.json()).toMatchObject({ email: person.email, accountType: 'district', role: 'teacher' });
  });
});
