import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiRouter,
  closeServer,
  createLogger,
  createServiceApp,
  listen,
  NotFoundError,
  ServiceTokens,
  zodToValidationError,
} from '../src/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies under test
type Json = any;

// Called as the gateway calls a service: with a service token (signed out unless a test says).
const tokens = new ServiceTokens('a-test-secret-of-at-least-32-characters', { issuer: 'gateway' });
const CALLER = {
  userId: '11111111-1111-4111-8111-111111111111',
  role: 'teacher',
  tenantId: '22222222-2222-4222-8222-222222222222',
  sessionId: '',
} as const;
const TEACHER = await tokens.headers('test', { caller: CALLER });
const STUDENT = await tokens.headers('test', { caller: { ...CALLER, role: 'student' } });
const SIGNED_OUT = await tokens.headers('test');
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, { ...init, headers: { ...SIGNED_OUT, ...(init.headers as Record<string, string>) } });

let base = '';
let release: (() => void) | undefined;
const router = new ApiRouter()
  .add(
    {
      method: 'post',
      path: '/api/things',
      summary: 'Create a thing',
      access: ['teacher'],
      body: z.object({ name: z.string().min(1, 'Name is required'), size: z.number().int().max(10) }),
      status: 201,
    },
    ({ body, caller }) => ({ ...body, owner: caller.userId }),
  )
  .add({ method: 'get', path: '/api/things/:id', summary: 'One thing', access: 'signed-in' }, () => {
    throw new NotFoundError('Thing not found');
  })
  .add({ method: 'get', path: '/api/boom', summary: 'Fails', access: 'public' }, () => {
    throw new Error('secret internal detail');
  })
  .add({ method: 'get', path: '/api/slow', summary: 'Slow', access: 'public' }, async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return { done: true };
  });

const app = createServiceApp({
  name: 'test',
  logger: createLogger('test', 'silent'),
  routers: [router],
  ready: async () => true,
  tokens,
});
let server: Awaited<ReturnType<typeof listen>>['server'];

beforeAll(async () => {
  ({ server } = await listen(app, 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => closeServer(server, 1000));

const post = (path: string, body: string, headers: Record<string, string> = TEACHER) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('service app', () => {
  it('when the body breaks the schema, then 400 names every bad field', async () => {
    const res = await post('/api/things', JSON.stringify({ name: '', size: 99 }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as Json;
    expect(body.code).toBe('validation_failed');
    expect(body.fields).toEqual({ name: 'Name is required', size: expect.any(String) });
  });

  it('when a strict body has keys it does not know, then each is named as a field', () => {
    const schema = z.object({ darkMode: z.boolean(), nested: z.object({ a: z.string() }).strict() }).strict();
    const one = schema.safeParse({ darkMode: true, nested: { a: 'x' }, theme: 'dark' });
    expect(zodToValidationError(one.error!)).toMatchObject({
      message: 'Unknown field: theme',
      fields: { theme: 'Unknown field: theme' },
    });
    const more = schema.safeParse({ darkMode: 'yes', nested: { a: 'x', b: 1 } });
    expect(zodToValidationError(more.error!).fields).toEqual({
      darkMode: expect.any(String),
      'nested.b': 'Unknown field: b',
    });
  });

  it('when the body is valid, then the handler result is sent with the declared status', async () => {
    const res = await post('/api/things', JSON.stringify({ name: 'kite', size: 3 }));
    expect(res.status).toBe(201);
    expect((await res.json()) as Json).toEqual({ name: 'kite', size: 3, owner: CALLER.userId });
  });

  it('when no caller is set, then 401; when the role is not allowed, then 403', async () => {
    expect((await post('/api/things', '{}', {})).status).toBe(401);
    expect((await post('/api/things', '{"name":"a","size":1}', STUDENT)).status).toBe(403);
  });

  it('when caller headers are made up without a token saying so, then they count as no caller', async () => {
    const res = await post('/api/things', '{"name":"a","size":1}', {
      'x-checkpoint-user-id': CALLER.userId,
      'x-checkpoint-user-role': 'teacher',
      'x-checkpoint-tenant-id': CALLER.tenantId,
    });
    expect(res.status).toBe(401);
  });

  it('when the JSON is broken or too large, then 400 / 413 with a clear message', async () => {
    const broken = await post('/api/things', '{"name":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as Json).message).toMatch(/not valid JSON/);
    const big = await post('/api/things', JSON.stringify({ name: 'x'.repeat(200_000), size: 1 }));
    expect(big.status).toBe(413);
  });

  it('when a handler throws a typed error, then its status and message are sent', async () => {
    const res = await fetch(`${base}/api/things/abc`, { headers: TEACHER });
    expect(res.status).toBe(404);
    expect((await res.json()) as Json).toEqual({ message: 'Thing not found', code: 'not_found' });
  });

  it('when a handler throws anything else, then 500 without internals', async () => {
    const res = await fetch(`${base}/api/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret internal detail|at .*\.ts/);
    expect(JSON.parse(text).code).toBe('internal');
  });

  it('when a path is unknown, then 404 JSON', async () => {
    const res = await fetch(`${base}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).code).toBe('not_found');
  });

  it('when routes are declared, then the OpenAPI paths describe them', () => {
    expect(Object.keys(router.paths)).toEqual(['/api/things', '/api/things/{id}', '/api/boom', '/api/slow']);
    expect(router.paths['/api/things']?.post?.responses).toHaveProperty('400');
    expect(router.paths['/api/things']?.post?.responses).toHaveProperty('403');
  });

  it('when the server is closed with a request in flight, then that request still completes', async () => {
    const extra = await listen(app, 0, '127.0.0.1');
    const pending = fetch(`${extra.url}/api/slow`);
    await new Promise((r) => setTimeout(r, 100));
    const closing = closeServer(extra.server, 5_000);
    release?.();
    const res = await pending;
    expect(res.status).toBe(200);
    await closing;
    await expect(fetch(`${extra.url}/healthz`)).rejects.toThrow();
  });
});
