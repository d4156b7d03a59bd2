// The all-in-one without SMTP_URL: its local SMTP server receives the services' mail, keeps it in
// the mailbox directory, and the operator reads it at /_mailbox?key=… (404 without the key).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@checkpoint/service-kit';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';
import { eventually, signUp } from './helpers.ts';

let postgres: PostgresHandle;
let app: AllInOne;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'checkpoint-mailbox-'));
  postgres = await startPostgres();
  app = await startAllInOne({
    postgresUrl: postgres.url,
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('e2e', 'silent'),
    env: { LOG_LEVEL: 'silent', SMTP_URL: '', RATE_LIMIT_SIGNUP_PER_MINUTE: '10000' },
    mailboxDir: dir,
  });
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('local mailbox of the all-in-one', () => {
  it('when SMTP_URL is unset, then the sign-up mail lands in the mailbox and the page lists it only with the key', async () => {
    expect(app.mailbox?.key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const user = await signUp({ url: app.url, mail: app.mailbox! }, 'teacher');
    const email = user.user!.email;
    const entries = await eventually(
      async () => app.mailbox!.messages(),
      (list) => list.some((m) => m.to.includes(email)),
    );
    const entry = entries.find((m) => m.to.includes(email))!;
    expect(entry.subject).toBe('Finish creating your Checkpoint account');
    const index = JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8')) as { id: string }[];
    expect(index.map((e) => e.id)).toContain(entry.id);
    expect(await readFile(path.join(dir, `${entry.id}.eml`), 'utf8')).toMatch(
      /Subject: Finish creating your Checkpoint account/,
    );

    expect((await fetch(`${app.url}/_mailbox`)).status).toBe(404);
    expect((await fetch(`${app.url}/_mailbox?key=nope`)).status).toBe(404);
    const page = await fetch(`${app.url}/_mailbox?key=${app.mailbox!.key}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    expect(await page.text()).toContain('Finish creating your Checkpoint account');
    const one = await (await fetch(`${app.url}/_mailbox?key=${app.mailbox!.key}&id=${entry.id}`)).text();
    expect(one).toMatch(/<a href="http:\/\/localhost:8080\/verify-email\?token=[A-Za-z0-9_-]+">/);
    // Everything else still goes to the gateway.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/auth/user`)).status).toBe(401);
  });
});
