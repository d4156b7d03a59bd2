// The gateway's defences against what a request may carry (nesting, encodings, methods) and what
// its answers say (no-store, no source maps, CSP), with a service app of the kit behind it.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiRouter,
  closeServer,
  createLogger,
  createServiceApp,
  listen,
  MAX_JSON_DEPTH,
  parseConfig,
  ServiceTokens,
} from '@checkpoint/service-kit';
import { createGateway, gatewayConfigSchema } from '../src/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies under test
type Json = any;

const SECRET = 'a-gateway-test-secret-of-at-least-32-characters';
const nestedArrays = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

// The analytics service's place, taken by a small service app that counts what reaches it.
let reached = 0;
const router = new ApiRouter()
  .add(
    {
      method: 'post',
      path: '/api/reports/echo',
      summary: 'Echo',
      access: 'public',
      body: z.object({ text: z.string(), nested: z.unknown().optional() }),
    },
    ({ body }) => {
      reached++;
      return body;
    },
  )
  .add({ method: 'get', path: '/api/reports/long', summary: 'A long read', access: 'public' }, () => ({
    text: 'a result row '.repeat(400),
  }))
  .add({ method: 'get', path: '/api/reports/plain', summary: 'Plain', access: 'public' }, () => {
    reached++;
    return { plain: true };
  })
  .add({ method: 'get', path: '/api/dashboard/stream', summary: 'Like the live view', access: 'public' }, ({ res }) => {
    reached++;
    res.setHeader('Cache-Control', 'no-transform');
    return { streamed: true };
  });

let base = '';
let port = 0;
let gateway: Server;
let upstream: Server;
let webDist = '';

beforeAll(async () => {
  const app = createServiceApp({
    name: 'analytics',
    logger: createLogger('analytics', 'silent'),
    routers: [router],
    ready: async () => true,
    tokens: new ServiceTokens(SECRET, { issuer: 'analytics' }),
  });
  const service = await listen(app, 0, '127.0.0.1');
  upstream = service.server;
  webDist = await mkdtemp(path.join(tmpdir(), 'gw-hardening-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root">checkpoint</div>');
  await writeFile(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(webDist, 'assets', 'app.js.map'), '{"version":3,"sources":["secret.ts"]}');
  await writeFile(path.join(webDist, 'root.js.map'), '{"version":3}');
  const config = parseConfig(gatewayConfigSchema, {
    WEB_DIST: webDist,
    PORT: '0',
    BODY_LIMIT_BYTES: String(200 * 1024),
    ANALYTICS_URL: service.url,
    SERVICE_TOKEN_SECRET: SECRET,
  });
  ({ server: gateway } = await listen(createGateway(config, createLogger('gateway', 'silent')), 0, '127.0.0.1'));
  port = (gateway.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await closeServer(gateway, 1000);
  await closeServer(upstream, 1000);
  await rm(webDist, { recursive: true, force: true });
});

// A signed-out browser's CSRF pair (double submit).
const CSRF = { 'x-csrf-token': 'token-1', cookie: 'cp_csrf=token-1' };
const postJson = (pathname: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  fetch(base + pathname, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...CSRF, ...headers },
  });

/** fetch refuses TRACE (and turns If-None-Match into a reload): a plain http request. */
const send = (method: string, pathname: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = request(base + pathname, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });

/** The status line the gateway answers a raw request with (methods Node's client will not send). */
const rawStatusLine = (head: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });

describe('gateway: JSON nesting', () => {
  it('when a 96 KB body nests 48,000 deep, then 400 too_deep at once, before the session, CSRF and the service', async () => {
    const body = `{"email":"a@b.c","password":${nestedArrays(48_000)}}`;
    expect(body.length).toBeGreaterThan(96_000);
    const started = performance.now();
    // No CSRF token and no service for /api/auth: the depth check comes first all the same.
    const signIn = await fetch(`${base}/api/auth/simple-login`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(signIn.status).toBe(400);
    const answer = (await signIn.json()) as Json;
    expect(answer.code).toBe('too_deep');
    expect(answer.message).toContain(String(MAX_JSON_DEPTH));
    const before = reached;
    const echo = await postJson('/api/reports/echo', `{"text":"x","nested":${nestedArrays(48_000)}}`);
    expect(echo.status).toBe(400);
    expect(reached).toBe(before);
  });

  it('when a body nests as deep as allowed, then it reaches the service', async () => {
    const nested = JSON.parse(nestedArrays(MAX_JSON_DEPTH - 1)) as unknown;
    const res = await postJson('/api/reports/echo', JSON.stringify({ text: 'x', nested }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).nested).toEqual(nested);
  });
});

describe('gateway: compressed answers', () => {
  const gzip = { 'accept-encoding': 'gzip' };
  it('when a long API read is asked for gzip, then it comes compressed', async () => {
    const res = await send('GET', '/api/reports/long', gzip);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('when a write is answered, then the answer is not compressed, however long', async () => {
    const text = 'a saved answer '.repeat(400);
    const res = await postJson('/api/reports/echo', JSON.stringify({ text }), gzip);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(((await res.json()) as Json).text).toBe(text);
  });
});

describe('gateway: Content-Encoding', () => {
  const json = JSON.stringify({ text: 'squeezed through the gateway' });
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('when the body is %s, then the service gets it inflated and answers', async (encoding, compress) => {
    const res = await postJson('/api/reports/echo', compress(json), { 'content-encoding': encoding });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: 'squeezed through the gateway' });
  });

  it('when the body is sent in chunks of unknown length, then the service gets all of it', async () => {
    const chunks = [json.slice(0, 10), json.slice(10)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const res = await fetch(`${base}/api/reports/echo`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': 'application/json', ...CSRF },
    } as RequestInit);
    expect(res.status).toBe(200);
  });

  it('when a gzip body is malformed, then 400 says so (not 502); an unknown encoding is 415', async () => {
    const before = reached;
    const broken = await postJson('/api/reports/echo', Buffer.from('this is not gzip'), { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(400);
    expect((await broken.json()) as Json).toMatchObject({ code: 'invalid_encoding' });
    const truncated = await postJson('/api/reports/echo', gzipSync(json).subarray(0, 15), {
      'content-encoding': 'gzip',
    });
    expect(truncated.status).toBe(400);
    const unknown = await postJson('/api/reports/echo', json, { 'content-encoding': 'compress' });
    expect(unknown.status).toBe(415);
    expect(((await unknown.json()) as Json).message).toMatch(/Content-Encoding "compress"/);
    expect(reached).toBe(before);
  });
});

describe('gateway: methods', () => {
  it('when TRACE is sent anywhere, then 405 with Allow and nothing reaches a service', async () => {
    const before = reached;
    for (const pathname of ['/api/reports/plain', '/api/nowhere', '/', '/healthz', '/assets/app.js']) {
      const res = await send('TRACE', pathname);
      expect(res.status, pathname).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    }
    expect(reached).toBe(before);
  });

  it('when a method Node does not know (TRACK) or CONNECT is sent, then 405 with Allow too', async () => {
    const track = await rawStatusLine('TRACK /api/reports/plain HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(track).toMatch(/^HTTP\/1\.1 405 /);
    expect(track).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
    const tunnel = await rawStatusLine('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    expect(tunnel).toMatch(/^HTTP\/1\.1 405 /);
    expect(tunnel).toMatch(/\r\nAllow: /i);
  });

  it('when a service path is called with a method it does not declare, then its 405 and Allow come through', async () => {
    const res = await postJson('/api/reports/plain', '{}');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const options = await fetch(`${base}/api/reports/plain`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const head = await fetch(`${base}/api/reports/plain`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});

describe('gateway: Cache-Control on API answers', () => {
  it('when any /api answer is sent (success, 304, errors), then it carries no-store', async () => {
    const ok = await fetch(`${base}/api/reports/plain`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const etag = ok.headers.get('etag');
    expect(etag).toBeTruthy();
    const notModified = await send('GET', '/api/reports/plain', { 'if-none-match': etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['cache-control']).toBe('no-store');
    const answers = [
      await fetch(`${base}/api/nowhere`), // 404 from the gateway
      await fetch(`${base}/api/classes`), // 503: no class service
      await fetch(`${base}/api/reports/nothing`), // 404 from the service
      await postJson('/api/reports/echo', '{}'), // 400 from the service
      await fetch(`${base}/api/reports/echo`, { method: 'POST', body: '{}' }), // 403 CSRF
      await postJson('/api/reports/echo', 'x'.repeat(300 * 1024)), // 413
      await fetch(`${base}/api/openapi.json`),
    ];
    for (const res of answers) expect(res.headers.get('cache-control'), `${res.status} ${res.url}`).toBe('no-store');
    expect((await send('TRACE', '/api/reports/plain')).headers['cache-control']).toBe('no-store');
  });

  it('when a service says no-transform (the live stream), then no-store is added, not put in its place', async () => {
    const res = await fetch(`${base}/api/dashboard/stream`);
    expect(res.status).toBe(200);
    const directives = (res.headers.get('cache-control') ?? '').split(/\s*,\s*/);
    expect(directives.sort()).toEqual(['no-store', 'no-transform']);
  });

  it('when the web app is requested, then it is not marked no-store', async () => {
    expect((await fetch(`${base}/class/1`)).headers.get('cache-control')).toBe('no-cache');
  });
});

describe('gateway: web app', () => {
  it('when a source map is requested, then 404, however it is spelled; the script itself is served', async () => {
    for (const pathname of ['/assets/app.js.map', '/root.js.map', '/assets/app.js%2Emap', '/nothing.map']) {
      const res = await fetch(base + pathname);
      expect(res.status, pathname).toBe(404);
      expect(await res.text()).not.toContain('secret.ts');
    }
    expect((await fetch(`${base}/assets/app.js`)).status).toBe(200);
  });

  it('when a page is served, then its CSP allows styles from our origin only', async () => {
    const csp = (await fetch(`${base}/class/1`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
  });
});
