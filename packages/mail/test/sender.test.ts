// The mail queue and sender against a real Postgres and a real SMTP server (the mail catcher):
// delivery after commit only, retries while SMTP is down, giving up after maxAttempts.
import { randomBytes } from 'node:crypto';
import { startMailCatcher, startPostgres, type MailCatcher, type PostgresHandle } from '@checkpoint/testkit';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  enqueueMail,
  MailSender,
  outgoingMailSchemaSql,
  readMailConfig,
  smtpTransport,
  type MailSqlExecutor,
} from '../src/index.ts';

let postgres: PostgresHandle;
let pool: pg.Pool;
const running: MailSender[] = [];
const catchers: MailCatcher[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  const schema = `mail_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  pool = new pg.Pool({ connectionString: postgres.url, options: `-c search_path=${schema}`, max: 5 });
  pool.on('error', () => {});
  await pool.query(outgoingMailSchemaSql);
}, 120_000);

afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
  for (const c of catchers.splice(0)) await c.stop();
  await pool.query('delete from outgoing_mail');
});

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

/** Runs `fn` in a transaction with an executor shaped like Prisma's transaction client. */
async function inTransaction(fn: (tx: MailSqlExecutor) => Promise<unknown>, commit = true): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await fn({
      $executeRawUnsafe: async (query, ...values) => (await client.query(query, values)).rowCount ?? 0,
    });
    await client.query(commit ? 'commit' : 'rollback');
  } finally {
    client.release();
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => unknown, timeoutMs = 5_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function catcher(port?: number): Promise<MailCatcher> {
  const c = await startMailCatcher(port ? { port } : {});
  catchers.push(c);
  return c;
}

function sender(smtpUrl: string, options: Partial<ConstructorParameters<typeof MailSender>[0]> = {}) {
  const s = new MailSender({
    pool,
    transport: smtpTransport({ smtpUrl, from: 'Checkpoint <no-reply@checkpoint.test>', timeoutMs: 2000 }),
    pollIntervalMs: 60_000,
    initialBackoffMs: 100,
    maxBackoffMs: 400,
    ...options,
  });
  running.push(s);
  return s;
}

describe('mail queue and sender', () => {
  it('when a message is queued in a committed transaction, then NOTIFY wakes the sender and it arrives with its texts', async () => {
    const smtp = await catcher();
    // A poll a minute away: only the NOTIFY at commit can make this fast.
    await sender(smtp.url).start();
    await inTransaction((tx) =>
      enqueueMail(tx, {
        to: 'ada@example.com',
        subject: 'Verify your email',
        text: 'Open https://app.test/verify-email?token=abc to verify.',
        html: '<p>Open <a href="https://app.test/verify-email?token=abc">the link</a></p>',
      }),
    );
    const mail = await smtp.waitFor((m) => m.to.includes('ada@example.com'), 5_000);
    expect(mail).toMatchObject({
      subject: 'Verify your email',
      from: expect.stringContaining('no-reply@checkpoint.test'),
    });
    expect(smtp.links(mail)).toEqual(['https://app.test/verify-email?token=abc']);
    expect(mail.html).toContain('<a href="https://app.test/verify-email?token=abc">');
    // The row is marked sent when the sender's transaction commits, just after SMTP accepted it.
    const rows = await until(
      async () => (await pool.query('select attempts, sent_at, last_error from outgoing_mail')).rows,
      (r) => r[0]?.sent_at,
    );
    expect(rows).toEqual([{ attempts: 1, sent_at: expect.any(Date), last_error: null }]);
  });

  it('when the transaction rolls back, then nothing is sent', async () => {
    const smtp = await catcher();
    await sender(smtp.url, { pollIntervalMs: 50 }).start();
    await inTransaction((tx) => enqueueMail(tx, { to: 'gone@example.com', subject: 'x', text: 'y' }), false);
    await inTransaction((tx) => enqueueMail(tx, { to: 'kept@example.com', subject: 'x', text: 'y' }));
    await smtp.waitFor((m) => m.to.includes('kept@example.com'), 5_000);
    expect(smtp.messages().map((m) => m.to)).toEqual([['kept@example.com']]);
  });

  it('when the SMTP server is down, then the message is retried with backoff and delivered once it is back', async () => {
    const first = await catcher();
    const port = first.port;
    await first.stop();
    catchers.splice(0);
    await sender(`smtp://127.0.0.1:${port}`, { pollIntervalMs: 50 }).start();
    await inTransaction((tx) => enqueueMail(tx, { to: 'later@example.com', subject: 'Later', text: 'Hello' }));

    const failed = async () =>
      (
        await pool.query<{ attempts: number; last_error: string | null }>(
          'select attempts, last_error from outgoing_mail',
        )
      ).rows[0];
    for (let i = 0; i < 100 && !((await failed())?.attempts ?? 0); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await failed()).toMatchObject({
      attempts: expect.any(Number),
      last_error: expect.stringMatching(/ECONNREFUSED|connect/i),
    });

    const back = await catcher(port);
    const mail = await back.waitFor((m) => m.to.includes('later@example.com'), 10_000);
    expect(mail.subject).toBe('Later');
    const rows = await until(
      async () => (await pool.query('select sent_at from outgoing_mail')).rows,
      (r) => r[0]?.sent_at,
    );
    expect(rows[0].sent_at).toBeInstanceOf(Date);
  });

  it('when every attempt fails, then the sender gives up after maxAttempts and logs a warning', async () => {
    const dead = await catcher();
    const port = dead.port;
    await dead.stop();
    catchers.splice(0);
    const warnings: string[] = [];
    await sender(`smtp://127.0.0.1:${port}`, {
      pollIntervalMs: 20,
      initialBackoffMs: 10,
      maxBackoffMs: 20,
      maxAttempts: 3,
      logger: { info() {}, warn: (_obj, msg) => void warnings.push(msg ?? '') },
    }).start();
    await inTransaction((tx) => enqueueMail(tx, { to: 'never@example.com', subject: 'x', text: 'y' }));
    for (let i = 0; i < 200 && !warnings.includes('mail sender: giving up on a message'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(warnings).toContain('mail sender: giving up on a message');
    await new Promise((r) => setTimeout(r, 200));
    const { rows } = await pool.query('select attempts, sent_at from outgoing_mail');
    expect(rows).toEqual([{ attempts: 3, sent_at: null }]);
  });

  it('when the SMTP server refuses a recipient, then neither the logs nor last_error hold the address, only the reason', async () => {
    const logged: unknown[] = [];
    const refusal =
      "Can't send mail - all recipients were rejected: 550 5.1.1 <ada.l@district.example>: Recipient address rejected";
    await sender('smtp://127.0.0.1:1', {
      transport: {
        send: () => Promise.reject(new Error(refusal)),
        close: () => {},
      },
      pollIntervalMs: 20,
      initialBackoffMs: 10,
      maxBackoffMs: 20,
      maxAttempts: 2,
      logger: { info: (obj) => void logged.push(obj), warn: (obj) => void logged.push(obj) },
    }).start();
    await inTransaction((tx) => enqueueMail(tx, { to: 'ada.l@district.example', subject: 'x', text: 'y' }));
    const row = await until(
      async () =>
        (await pool.query<{ attempts: number; last_error: string }>('select attempts, last_error from outgoing_mail'))
          .rows[0],
      (r) => r?.attempts === 2,
    );
    expect(row?.last_error).toBe(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <<address>>: Recipient address rejected",
    );
    expect(logged).toHaveLength(2);
    expect(JSON.stringify(logged)).not.toContain('ada.l@district.example');
    expect(JSON.stringify(logged)).toContain('550 5.1.1');
  });

  it('when an address holds a line break or a list, then enqueue refuses it', async () => {
    await expect(
      inTransaction((tx) => enqueueMail(tx, { to: 'a@example.com\r\nBcc: b@example.com', subject: 'x', text: 'y' })),
    ).rejects.toThrow(/one valid address/);
  });
});

describe('mail config', () => {
  it('when SMTP_URL is not an smtp URL, then the error names the variable', () => {
    expect(() => readMailConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(readMailConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).SMTP_URL).toBe(
      'smtps://u:p@mail.example.com:465',
    );
    expect(readMailConfig({}).MAIL_FROM).toBe('Checkpoint <no-reply@localhost>');
  });
});
