// What a request may cost a service and which methods it answers: nesting bounded before parsing,
// linear checks, compressed bodies, 405 with Allow on declared paths.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiRouter,
  closeServer,
  createLogger,
  createServiceApp,
  findNulCharacter,
  jsonNestingExceeds,
  listen,
  MAX_JSON_DEPTH,
  ServiceTokens,
} from '../src/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies under test
type Json = any;

const tokens = new ServiceTokens('a-test-secret-of-at-least-32-characters', { issuer: 'gateway' });
const AS_GATEWAY = await tokens.headers('test');

/** `[[…[1]…]]` nested `depth` deep. */
const nestedArrays = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

let echoed = 0;
const things = new ApiRouter()
  .add(
    {
      method: 'post',
      path: '/api/echo',
      summary: 'Echo',
      access: 'public',
      body: z.object({ text: z.string(), nested: z.unknown().optional() }),
    },
    ({ body }) => {
      echoed++;
      return body;
    },
  )
  .add({ method: 'get', path: '/api/things/:id', summary: 'One thing', access: 'public' }, ({ req }) => ({
    id: req.params.id,
  }))
  .add({ method: 'delete', path: '/api/things/:id', summary: 'Delete a thing', access: 'public' }, () => undefined);
// A second router declaring another method on the same path: Allow lists both routers' methods.
const more = new ApiRouter().add(
  { method: 'put', path: '/api/things/:id', summary: 'Change a thing', access: 'public' },
  () => ({ changed: true }),
);

// A literal path that the parameter route above also matches (like /api/classes/archived and /api/classes/:id).
const special = new ApiRouter().add(
  { method: 'get', path: '/api/things/special', summary: 'The special thing', access: 'public' },
  () => ({ special: true }),
);

let base = '';
let server: Awaited<ReturnType<typeof listen>>['server'];
beforeAll(async () => {
  const app = createServiceApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    routers: [special, things, more],
    ready: async () => true,
    tokens,
  });
  ({ server } = await listen(app, 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => closeServer(server, 1000));

const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(base + path, { ...init, headers: { ...AS_GATEWAY, ...init.headers } });
/** fetch refuses TRACE: a plain http request for methods it does not send. */
const send = (method: string, path: string) =>
  new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
    const req = request(base + path, { method, headers: AS_GATEWAY }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow }));
    });
    req.on('error', reject);
    req.end();
  });
const postJson = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
  call('/api/echo', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('JSON nesting', () => {
  it('when a 96 KB body nests 48,000 deep, then 400 too_deep comes at once and no handler runs', async () => {
    const before = echoed;
    const started = performance.now();
    const res = await postJson(`{"text":"x","nested":${nestedArrays(48_000)}}`);
    const elapsed = performance.now() - started;
    expect(res.status).toBe(400);
    const body = (await res.json()) as Json;
    expect(body.code).toBe('too_deep');
    expect(body.message).toContain(String(MAX_JSON_DEPTH));
    expect(echoed).toBe(before);
    expect(elapsed).toBeLessThan(1_000);
    // The service still answers (it was not blocked).
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('when a body nests as deep as allowed, then it is handled', async () => {
    const nested = JSON.parse(nestedArrays(MAX_JSON_DEPTH - 1)) as unknown;
    const res = await postJson(JSON.stringify({ text: 'x', nested }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).nested).toEqual(nested);
  });

  it('when brackets are inside strings, then they do not count as nesting', () => {
    const text = JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[[', c: [[['\\']]] });
    expect(jsonNestingExceeds(text, 4)).toBe(false);
    expect(jsonNestingExceeds(`{"a":"\\"",${'['.repeat(5)}${']'.repeat(5)}}`, 4)).toBe(true);
    expect(jsonNestingExceeds(Buffer.from(nestedArrays(33)), 32)).toBe(true);
    expect(jsonNestingExceeds(Buffer.from(nestedArrays(32)), 32)).toBe(false);
  });

  it('when a UTF-16 body nests too deep, then 400 too_deep as well', async () => {
    const text = `{"text":"é","nested":${nestedArrays(MAX_JSON_DEPTH + 1)}}`;
    const res = await postJson(Buffer.from(text, 'utf16le'), { 'content-type': 'application/json; charset=utf-16le' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).code).toBe('too_deep');
  });
});

describe('UTF-8', () => {
  it('when a JSON body carries bytes that are not UTF-8 (a Latin-1 "Zoë"), then 400 invalid_utf8 and no handler runs; real UTF-8 passes', async () => {
    const before = echoed;
    const latin1 = Buffer.concat([Buffer.from('{"text":"Zo'), Buffer.from([0xeb]), Buffer.from('"}')]);
    const res = await postJson(latin1);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_utf8', fields: { body: 'Not valid UTF-8' } });
    expect(echoed).toBe(before);
    const ok = await postJson(Buffer.from('{"text":"Zoë"}', 'utf8'));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Json).text).toBe('Zoë');
  });
});

describe('NUL check', () => {
  it('when a value is deep and wide, then the check is linear and names the path of the NUL', () => {
    // 100,000 levels, each with two siblings: copying the path at every level would cost 5·10⁹ steps.
    const depth = 100_000;
    let value: unknown = { text: 'bad\u0000' };
    for (let i = 0; i < depth; i++) value = { left: 'a', next: [value], right: [1, 2] };
    const started = performance.now();
    const path = findNulCharacter(value);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(path).toHaveLength(depth * 2 + 1);
    expect(path!.slice(0, 4)).toEqual(['next', 0, 'next', 0]);
    expect(path!.at(-1)).toBe('text');
  });

  it('when a NUL is in a key or nowhere, then the parent path or undefined', () => {
    expect(findNulCharacter({ a: [1, { b: 'ok' }, { 'k\u0000': 1 }] })).toEqual(['a', 2]);
    expect(findNulCharacter({ a: ['x', { b: 'y' }], c: 'z' })).toBeUndefined();
    expect(findNulCharacter('\u0000')).toEqual([]);
  });
});

describe('compressed bodies', () => {
  const json = JSON.stringify({ text: 'squeezed' });
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('when the body is %s, then it is inflated and handled', async (encoding, compress) => {
    const res = await postJson(compress(json), { 'content-encoding': encoding });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: 'squeezed' });
  });

  it('when a gzip body is malformed, then 400 says so; an unknown encoding is 415', async () => {
    const broken = await postJson(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(400);
    expect((await broken.json()) as Json).toMatchObject({ code: 'invalid_encoding' });
    const truncated = await postJson(gzipSync(json).subarray(0, 12), { 'content-encoding': 'gzip' });
    expect(truncated.status).toBe(400);
    const unknown = await postJson(json, { 'content-encoding': 'compress' });
    expect(unknown.status).toBe(415);
    expect(((await unknown.json()) as Json).message).toMatch(/compress/);
  });
});

describe('methods', () => {
  it('when a declared path is called with a method it does not declare, then 405 with Allow', async () => {
    const post = await call('/api/things/abc', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    expect((await post.json()) as Json).toMatchObject({ code: 'method_not_allowed' });
    expect(await send('TRACE', '/api/echo')).toEqual({ status: 405, allow: 'POST, OPTIONS' });
    const head = await call('/api/echo', { method: 'HEAD' });
    expect(head.status).toBe(405);
  });

  it('when a literal path is called with a method only a parameter route on the same place declares, then 405', async () => {
    // PUT and DELETE /api/things/:id exist, but /api/things/special is not a thing's id.
    for (const method of ['PUT', 'DELETE', 'POST']) {
      const res = await call('/api/things/special', { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect((await res.json()) as Json).toMatchObject({ code: 'method_not_allowed' });
    }
    const options = await call('/api/things/special/', { method: 'OPTIONS' });
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await (await call('/api/things/special')).json()).toEqual({ special: true });
    expect((await call('/api/things/SPECIAL', { method: 'HEAD' })).status).toBe(200);
    // A thing's id still reaches the parameter route.
    expect((await call('/api/things/abc', { method: 'PUT' })).status).toBe(200);
  });

  it('when a path is unknown, then 404 whatever the method', async () => {
    expect((await send('TRACE', '/api/nothing')).status).toBe(404);
    expect((await call('/api/things', { method: 'PATCH' })).status).toBe(404);
    expect((await call('/api/nothing', { method: 'OPTIONS' })).status).toBe(404);
  });

  it('when OPTIONS or HEAD is sent, then OPTIONS lists every declared method and HEAD goes where GET does', async () => {
    const options = await call('/api/things/abc', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    const head = await call('/api/things/abc/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await call('/api/things/abc', { method: 'PUT' })).status).toBe(200);
  });
});
