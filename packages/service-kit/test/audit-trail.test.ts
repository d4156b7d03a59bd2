// The audit trail of the services' student-data routes (privacy.ts, docs/adr/009) on real
// Postgres: a path in another case is no route (404, no entry) and the 405/OPTIONS answers agree;
// the trail's own matcher takes any case, so a router that matched one could never pass a read
// unrecorded; ids are kept in lower case whatever case the call named them in; a query parameter
// holding a list (classIds=a,b) names each of its ids, at most 200 (the widest report).
import type { AddressInfo } from 'node:net';
import { AuditEntryRecordedSchema, fromBinary, outboxSchemaSql } from '@checkpoint/events';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import express from 'express';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiRouter,
  auditTrail,
  closeServer,
  createLogger,
  createServiceApp,
  listen,
  peerAuthentication,
  ServiceTokens,
  type AuditedRoute,
} from '../src/index.ts';

const tokens = new ServiceTokens('a-test-secret-of-at-least-32-characters', { issuer: 'gateway' });
const TENANT = '22222222-2222-4222-8222-222222222222';
const TEACHER = await tokens.headers('test', {
  caller: { userId: '11111111-1111-4111-8111-111111111111', role: 'teacher', tenantId: TENANT, sessionId: '' },
});
const CLASS = '0193a3b0-0000-7000-8000-0000000000aa';
const STUDENT = '0193a3b0-0000-7000-8000-0000000000bb';
const logger = createLogger('test', 'silent');

const ROUTES: AuditedRoute[] = [
  { method: 'GET', path: '/api/classes/:id/students', action: 'read' },
  { method: 'DELETE', path: '/api/classes/:id/students/:studentId', action: 'change' },
  { method: 'GET', path: '/api/reports', action: 'read', queryTargets: ['classIds'] },
];

let postgres: PostgresHandle;
let pool: pg.Pool;
let base = '';
let looseBase = '';
const servers: Awaited<ReturnType<typeof listen>>['server'][] = [];

async function serve(app: express.Express): Promise<string> {
  const { server } = await listen(app, 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  postgres = await startPostgres();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('create schema audit_trail_test');
  await admin.end();
  pool = new pg.Pool({ connectionString: postgres.url, options: '-c search_path=audit_trail_test', max: 4 });
  pool.on('error', () => {});
  await pool.query(outboxSchemaSql);

  const router = new ApiRouter()
    .add({ method: 'get', path: '/api/classes/:id/students', summary: 'Students', access: ['teacher'] }, () => [
      { id: STUDENT, name: 'Pia' },
    ])
    .add(
      { method: 'delete', path: '/api/classes/:id/students/:studentId', summary: 'Remove', access: ['teacher'] },
      () => undefined,
    )
    .add({ method: 'get', path: '/api/classes/archived', summary: 'Archived', access: ['teacher'] }, () => [])
    .add({ method: 'get', path: '/api/reports', summary: 'Report', access: ['teacher'] }, () => ({ ok: true }));
  base = await serve(
    createServiceApp({
      name: 'test',
      logger,
      routers: [router],
      ready: async () => true,
      tokens,
      extra: (app) => app.use(auditTrail({ pool, service: 'test', routes: ROUTES, logger })),
    }),
  );

  // A router that matches paths in any case (Express's default), behind the same trail.
  const loose = express();
  loose.use(peerAuthentication(tokens, 'test'));
  loose.use(auditTrail({ pool, service: 'test', routes: ROUTES, logger }));
  loose.get('/api/classes/:id/students', (_req, res) => void res.json([{ id: STUDENT, name: 'Pia' }]));
  looseBase = await serve(loose);
}, 120_000);

afterAll(async () => {
  for (const server of servers) await closeServer(server, 1000);
  await pool?.end();
  await postgres?.stop();
});

beforeEach(async () => {
  await pool.query('delete from outbox');
});

const call = (url: string, method = 'GET') => fetch(url, { method, headers: TEACHER });

async function entries(): Promise<{ resource: string; targetIds: string[] }[]> {
  const { rows } = await pool.query<{ payload: Buffer }>(
    `select payload from outbox where type = $1 order by created_at`,
    [AuditEntryRecordedSchema.typeName],
  );
  return rows.map((r) => {
    const e = fromBinary(AuditEntryRecordedSchema, r.payload);
    return { resource: e.resource, targetIds: e.targetIds };
  });
}

/** The entries once `count` are written (they are written when the response finished). */
async function settled(count: number): Promise<{ resource: string; targetIds: string[] }[]> {
  const until = Date.now() + 5000;
  for (;;) {
    const found = await entries();
    if (found.length >= count || Date.now() > until) {
      // A moment more: an entry beyond the expected count would show too.
      await new Promise((r) => setTimeout(r, 100));
      return entries();
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('audit trail', () => {
  it('when an audited path is called in another case, then it is no route (404) and nothing was read', async () => {
    const wrong = await call(`${base}/api/classes/${CLASS}/Students`);
    expect(wrong.status).toBe(404);
    expect(JSON.stringify(await wrong.json())).not.toContain('Pia');
    expect((await call(`${base}/API/classes/${CLASS}/students`)).status).toBe(404);
    // The method guard agrees: no 405 or OPTIONS answer for a path no route takes.
    expect((await call(`${base}/api/classes/${CLASS}/Students`, 'POST')).status).toBe(404);
    expect((await call(`${base}/api/classes/${CLASS}/Students`, 'OPTIONS')).status).toBe(404);
    expect((await call(`${base}/api/classes/Archived`, 'POST')).status).toBe(404);
    expect((await call(`${base}/api/classes/archived`, 'POST')).status).toBe(405);
    expect(await settled(0)).toEqual([]);

    // The path as declared: read and recorded.
    expect((await call(`${base}/api/classes/${CLASS}/students`)).status).toBe(200);
    expect(await settled(1)).toEqual([{ resource: 'GET /api/classes/{id}/students', targetIds: [CLASS] }]);
  });

  it('when a router takes an audited path in another case, then the trail records the read all the same', async () => {
    const res = await call(`${looseBase}/api/CLASSES/${CLASS}/Students/`);
    expect(res.status).toBe(200);
    expect(await settled(1)).toEqual([{ resource: 'GET /api/classes/{id}/students', targetIds: [CLASS] }]);
  });

  it('when ids are named in upper case, then the entry keeps them in lower case', async () => {
    const res = await call(`${base}/api/classes/${CLASS.toUpperCase()}/students/${STUDENT.toUpperCase()}`, 'DELETE');
    expect(res.status).toBe(204);
    expect(await settled(1)).toEqual([
      { resource: 'DELETE /api/classes/{id}/students/{studentId}', targetIds: [CLASS, STUDENT] },
    ]);
  });

  it('when a query parameter lists ids (classIds=a,b), then each is a target, once, in lower case, at most 200', async () => {
    const other = '0193a3b0-0000-7000-8000-0000000000cc';
    const list = encodeURIComponent(`${CLASS.toUpperCase()}, ${other},${CLASS}`);
    expect((await call(`${base}/api/reports?classIds=${list}`)).status).toBe(200);
    expect(await settled(1)).toEqual([{ resource: 'GET /api/reports', targetIds: [CLASS, other] }]);

    await pool.query('delete from outbox');
    const many = Array.from({ length: 230 }, (_, i) => `0193a3b0-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect((await call(`${base}/api/reports?classIds=${many.join(',')}`)).status).toBe(200);
    const [entry] = await settled(1);
    expect(entry?.targetIds).toEqual(many.slice(0, 200));
  });
});
