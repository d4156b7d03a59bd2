// startCrashablePostgres: the fault test's database crash is a real one (immediate shutdown, WAL
// recovery at the next start), and the server comes back on the same URL with what was committed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrashablePostgres, type CrashablePostgres } from '../src/index.ts';

describe('startCrashablePostgres', () => {
  let server: CrashablePostgres;
  beforeAll(async () => {
    server = await startCrashablePostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('when the server crashes mid-transaction, then open connections break, and after start the committed row is back and the uncommitted one is not', async () => {
    const setup = new pg.Client({ connectionString: server.url });
    await setup.connect();
    await setup.query('create table kept (id int primary key)');
    await setup.query('insert into kept values (1)');
    await setup.end();

    const open = new pg.Client({ connectionString: server.url });
    await open.connect();
    const broken = new Promise<Error>((resolve) => open.once('error', resolve));
    await open.query('begin');
    await open.query('insert into kept values (2)');

    await server.crash();
    expect((await broken).message).toMatch(/terminat|connection|shut/i);
    await expect(new pg.Client({ connectionString: server.url }).connect()).rejects.toThrow();

    await server.start();
    const after = new pg.Client({ connectionString: server.url });
    await after.connect();
    const { rows } = await after.query<{ id: number }>('select id from kept order by id');
    await after.end();
    expect(rows.map((r) => r.id)).toEqual([1]);
  });
});
