// provisionServiceDatabase (the local run modes and the chart's migrate Job) with the admin role a
// managed Postgres gives: one that may create roles and databases' schemas, but is not a superuser.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import { provisionServiceDatabase } from '../src/index.ts';

let postgres: PostgresHandle;
let ownerUrl: string;

beforeAll(async () => {
  postgres = await startPostgres();
  const superuser = new pg.Client({ connectionString: postgres.url });
  await superuser.connect();
  const owner = `owner_${Math.random().toString(36).slice(2, 8)}`;
  await superuser.query(`create role ${owner} login password 'owner-password' createrole`);
  const database = new URL(postgres.url).pathname.slice(1) || 'postgres';
  await superuser.query(`grant create, connect on database "${database}" to ${owner}`);
  await superuser.end();
  const url = new URL(postgres.url);
  url.username = owner;
  url.password = 'owner-password';
  ownerUrl = url.toString();
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
});

describe('provisionServiceDatabase', () => {
  it('when the admin role may create roles but is not a superuser, then the service gets its role and schema, again on a second run', async () => {
    const service = `prov_${Math.random().toString(36).slice(2, 8)}`;
    for (let run = 1; run <= 2; run++) {
      const serviceUrl = await provisionServiceDatabase(ownerUrl, service);
      const client = new pg.Client({ connectionString: serviceUrl, options: `-c search_path=${service}` });
      await client.connect();
      try {
        await client.query(`create table if not exists things (id int primary key)`);
        const { rows } = await client.query<{ owner: string }>(
          'select nspowner::regrole::text as owner from pg_namespace where nspname = $1',
          [service],
        );
        expect(rows).toEqual([{ owner: `cp_${service}` }]);
      } finally {
        await client.end();
      }
    }
  });
});
