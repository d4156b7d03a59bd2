// docs/adding-a-service.md, followed for a throwaway service: its entry in the list of services
// (packages/service-registry/services.js, here a copy with the entry added), its ServiceDefinition
// with a migration and a router, then the all-in-one started with that list. The service must
// come up in its own schema and answer its paths through the gateway, handed over in process (the
// all-in-one) and over HTTP to its <NAME>_URL (stack mode and the chart), while the other services'
// paths stay theirs. The chart, the image and deploy/ are held to the list by
// packages/service-registry/test/listings.test.ts.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGateway, gatewayConfigSchemaFor, stopGateway } from '@checkpoint/gateway';
import {
  ApiRouter,
  closeServer,
  createLogger,
  listen,
  parseConfig,
  type ServiceDefinition,
} from '@checkpoint/service-kit';
import {
  databaseRole,
  registryProblems,
  routeTable,
  services,
  urlVariable,
  type ServiceEntry,
} from '@checkpoint/service-registry';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';

const SECRET = 'a-service-token-secret-of-at-least-32-characters';
const logger = createLogger('adding-a-service', 'silent');

// Step 2 of the guide: the service's entry in the list.
const entry: ServiceEntry = { name: 'throwaway', port: 8199, privacy: false, routes: ['/api/throwaways/**'] };
const list = [...services, entry];

// Step 1: the service itself, as services/<name>/src/service.ts would define it.
const configSchema = z.object({
  THROWAWAY_GREETING: z.string().min(1).default('hello').describe('What the throwaway service says first'),
});

function throwawayService(migrationsDir: string): ServiceDefinition<typeof configSchema> {
  return {
    name: 'throwaway',
    configSchema,
    migrationsDir,
    create: ({ config, pool }) => ({
      routers: [
        new ApiRouter().add(
          {
            method: 'get',
            path: '/api/throwaways/notes',
            summary: "The throwaway service's notes",
            access: 'public',
            response: z.object({ greeting: z.string(), notes: z.array(z.string()) }),
          },
          async () => ({
            greeting: config.THROWAWAY_GREETING,
            notes: (await pool.query<{ text: string }>('select text from notes order by id')).rows.map((r) => r.text),
          }),
        ),
      ],
    }),
  };
}

let postgres: PostgresHandle;
let app: AllInOne;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'checkpoint-throwaway-'));
  mkdirSync(path.join(dir, 'migrations'));
  writeFileSync(
    path.join(dir, 'migrations/001_init.sql'),
    "create table notes (id serial primary key, text text not null);\ninsert into notes (text) values ('from its migration');\n",
  );
  postgres = await startPostgres();
  // Step 3: the all-in-one runs what the list names, each with its definition. Only the
  // throwaway service here: the others' start-up is what every other contract test covers.
  app = await startAllInOne({
    postgresUrl: postgres.url,
    port: 0,
    host: '127.0.0.1',
    logger,
    env: { LOG_LEVEL: 'silent', SERVICE_TOKEN_SECRET: SECRET, THROWAWAY_GREETING: 'hi there' },
    registry: { services: [entry], definitions: { throwaway: throwawayService(path.join(dir, 'migrations')) } },
  });
});

afterAll(async () => {
  await app?.stop();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('adding a service by docs/adding-a-service.md', () => {
  it('when its entry joins the list, then the list stays valid and the new paths are its own, the others unchanged', () => {
    expect(registryProblems(list)).toEqual([]);
    const route = routeTable(list);
    expect(route('/api/throwaways/notes')).toBe('throwaway');
    expect(route('/api/throwaways')).toBe('throwaway');
    for (const [p, owner] of [
      ['/api/classes/abc', 'class'],
      ['/api/classes/abc/assessments', 'assessment'],
      ['/api/assessments/abc/results', 'analytics'],
      ['/api/auth/me', 'identity'],
    ] as const)
      expect(route(p)).toBe(owner);
  });

  it('when an entry claims paths another service has, then the list is refused', () => {
    const greedy = { ...entry, routes: ['/api/classes/**'] };
    expect(registryProblems([...services, greedy])).toEqual([
      'routes /api/classes/** (class) and /api/classes/** (throwaway) claim the same paths',
    ]);
  });

  it('when the all-in-one starts with it, then its migration ran in its own schema, owned by its own role', async () => {
    expect(app.services.map((s) => s.name)).toEqual(['throwaway']);
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ owner: string; notes: number }>(
        `select (select schema_owner from information_schema.schemata where schema_name = 'throwaway') as owner,
                (select count(*)::int from throwaway.notes) as notes`,
      );
      expect(rows[0]).toEqual({ owner: databaseRole('throwaway'), notes: 1 });
    } finally {
      await db.end();
    }
  });

  it('when its path is called through the all-in-one, then the gateway hands it to the service', async () => {
    const res = await fetch(`${app.url}/api/throwaways/notes`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ greeting: 'hi there', notes: ['from its migration'] });
    // The all-in-one's gateway routes by the list it runs: a path of no service in it is unknown.
    expect((await fetch(`${app.url}/api/classes/abc`)).status).toBe(404);
  });

  it('when a gateway on its own has THROWAWAY_URL, then it sends the path to that URL (stack mode, the chart)', async () => {
    const service = app.services[0]!;
    const config = parseConfig(gatewayConfigSchemaFor(list), {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SERVICE_TOKEN_SECRET: SECRET,
      [urlVariable('throwaway')]: service.url,
    });
    expect(config.upstreams.throwaway).toBe(service.url);
    const gateway = createGateway(config, logger, { registry: list });
    const { server, url } = await listen(gateway, 0, '127.0.0.1');
    try {
      const res = await fetch(`${url}/api/throwaways/notes`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ greeting: 'hi there', notes: ['from its migration'] });
    } finally {
      stopGateway(gateway);
      await closeServer(server, 5_000);
    }
  });
});
