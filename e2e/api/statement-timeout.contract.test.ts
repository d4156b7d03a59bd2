// A request stuck behind a lock (a long migration, an operator's manual `lock table`, a runaway
// transaction) is answered, not left hanging with its pooled connection: with
// DATABASE_STATEMENT_TIMEOUT_MS, Postgres cancels the statement and the service answers 503
// `timeout` (not `unavailable`: the database is there, this call took too long), through Prisma as
// through pg; nothing half-written stays, and the service serves again once the lock is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createLogger } from '@checkpoint/service-kit';
import { startMailCatcher, startPostgres, type MailCatcher, type PostgresHandle } from '@checkpoint/testkit';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';
import { signUp, type Client, type ClassJson } from './helpers.ts';

let backend: AllInOne;
let postgres: PostgresHandle;
let mail: MailCatcher;
let teacher: Client;
let cls: ClassJson;

beforeAll(async () => {
  [postgres, mail] = await Promise.all([startPostgres(), startMailCatcher()]);
  backend = await startAllInOne({
    postgresUrl: postgres.url,
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('e2e', 'silent'),
    env: { LOG_LEVEL: 'silent', SMTP_URL: mail.url, DATABASE_STATEMENT_TIMEOUT_MS: '500' },
  });
  teacher = await signUp({ url: backend.url, mail }, 'teacher');
  cls = (await teacher.post('/api/classes', { name: 'Locked out', subject: 'Science', period: '1' })).body;
}, 240_000);

afterAll(async () => {
  await backend?.stop();
  await Promise.all([postgres?.stop(), mail?.stop()]);
});

/** Runs `fn` while another session holds an exclusive lock on the class service's classes table. */
async function whileLocked<T>(fn: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: postgres.url });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('lock table class.classes in access exclusive mode');
    return await fn();
  } finally {
    await holder.query('rollback').catch(() => {});
    await holder.end();
  }
}

describe('statement timeout', () => {
  it('when a read waits on a lock past the bound, then it answers 503 timeout, and 200 once the lock is gone', async () => {
    const started = Date.now();
    const reply = await whileLocked(() => teacher.get('/api/classes'));
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ code: 'timeout', message: 'This took too long on our side. Please try again.' });
    // Not an outage to wait out: a retry may meet the same lock or the same slow query.
    expect(reply.headers.get('retry-after')).toBeNull();
    expect(Date.now() - started).toBeLessThan(10_000);

    const after = await teacher.get('/api/classes');
    expect(after.status).toBe(200);
    expect((after.body as ClassJson[]).map((c) => c.id)).toEqual([cls.id]);
  });

  it('when a write waits on a lock past the bound, then it answers 503 timeout and nothing of it is stored', async () => {
    const reply = await whileLocked(() =>
      teacher.post('/api/classes', { name: 'Never made', subject: 'Science', period: '2' }),
    );
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ code: 'timeout' });

    const after = await teacher.get('/api/classes');
    expect((after.body as ClassJson[]).map((c) => c.name)).toEqual(['Locked out']);
  });
});
