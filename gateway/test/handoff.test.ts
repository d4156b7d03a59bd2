// The in-process handoff (src/handoff.ts) against the proxy (src/proxy.ts): one service app, reached
// both ways from the same front, must see the same request and give the client the same answer.
import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import express, { type Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, createLogger, enableMetrics, httpMetrics, listen } from '@checkpoint/service-kit';
import { createHandoff } from '../src/handoff.ts';
import { createProxy, type Proxy } from '../src/proxy.ts';

const logger = createLogger('gateway', 'silent');
let service: Server;
let front: Server;
let frontUrl = '';
/** The requests /api/hold keeps unanswered. */
const held: Request[] = [];

/** A service as service-kit builds one, reduced: it parses JSON and tells what it received. */
function serviceApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1kb' }));
  app.post('/api/echo', (req: Request, res) => {
    const { host: _host, connection: _connection, ...headers } = req.headers;
    res.setHeader('Cache-Control', 'private, max-age=5');
    res.cookie('kept', '1');
    res.status(201).json({ method: req.method, url: req.url, headers, body: req.body as unknown });
  });
  app.get('/api/stream', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store, no-transform' });
    res.write('one,');
    setTimeout(() => res.end('two'), 20);
  });
  app.get('/api/breaks', (_req, _res, next) => next(new Error('no handler after this one')));
  app.get('/api/hold', (req) => {
    held.push(req);
  });
  app.use((err: Error & { status?: number }, _req: Request, res: express.Response, next: express.NextFunction) => {
    if (err.message === 'no handler after this one') return next(err);
    res.status(err.status ?? 500).json({ message: err.message, code: 'bad_request' });
  });
  return app;
}

beforeAll(async () => {
  const app = serviceApp();
  ({ server: service } = await listen(app, 0, '127.0.0.1'));
  const serviceUrl = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
  const ways: Record<string, Proxy> = {
    proxy: createProxy('svc', serviceUrl, 5_000, logger),
    handoff: createHandoff('svc', app, logger),
  };
  // The gateway's part before either: the body read (inflated), the service token set.
  const gateway = express();
  gateway.use(express.raw({ type: () => true, limit: '1kb' }));
  gateway.use((req: Request & { rawBody?: Buffer }, res) => {
    req.headers['x-checkpoint-token'] = 'signed-by-the-gateway';
    // A cookie of the gateway's own (a renewed session, the CSRF cookie) goes out with the service's.
    res.setHeader('Set-Cookie', 'gw=1; Path=/');
    if (Buffer.isBuffer(req.body)) req.rawBody = req.body;
    const [, way, rest] = /^\/([^/]+)(.*)$/.exec(req.originalUrl)!;
    req.url = rest!;
    ways[way!]!(req, res);
  });
  ({ server: front } = await listen(gateway, 0, '127.0.0.1'));
  frontUrl = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
});

afterAll(async () => {
  await closeServer(front, 1_000);
  await closeServer(service, 1_000);
});

async function call(way: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${frontUrl}/${way}${path}`, init);
  const headers: Record<string, string> = Object.fromEntries(
    [...res.headers].filter(([name]) => !['date', 'keep-alive', 'connection', 'set-cookie'].includes(name)),
  );
  const cookies = res.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies.join(', ');
  return { status: res.status, headers, text: await res.text() };
}

describe('in-process handoff', () => {
  it('when a JSON save is handed over, then the service sees what the proxy sends it and the client gets the same answer', async () => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ answer: 'B', clientSeq: 3 }),
    };
    const [proxied, handed] = [await call('proxy', '/api/echo', init), await call('handoff', '/api/echo', init)];
    expect(handed).toEqual(proxied);
    expect(handed.status).toBe(201);
    const seen = JSON.parse(handed.text) as { headers: Record<string, string>; body: unknown; url: string };
    expect(seen.body).toEqual({ answer: 'B', clientSeq: 3 });
    expect(seen.url).toBe('/api/echo');
    expect(seen.headers['x-checkpoint-token']).toBe('signed-by-the-gateway');
    expect(seen.headers['x-forwarded-for']).toBe('203.0.113.9,127.0.0.1');
    expect(handed.headers['cache-control']).toBe('no-store, private, max-age=5');
    expect(handed.headers['set-cookie']).toBe('gw=1; Path=/, kept=1; Path=/');
  });

  it('when the body came gzipped, then the service parses the inflated body with its length', async () => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ answer: 'C' })),
    };
    const [proxied, handed] = [await call('proxy', '/api/echo', init), await call('handoff', '/api/echo', init)];
    expect(handed).toEqual(proxied);
    const seen = JSON.parse(handed.text) as { headers: Record<string, string>; body: unknown };
    expect(seen.body).toEqual({ answer: 'C' });
    expect(seen.headers['content-encoding']).toBeUndefined();
    expect(seen.headers['content-length']).toBe(String(JSON.stringify({ answer: 'C' }).length));
  });

  it("when the body is not JSON, then the service's own parser refuses it", async () => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"answer":' };
    const [proxied, handed] = [await call('proxy', '/api/echo', init), await call('handoff', '/api/echo', init)];
    expect(handed).toEqual(proxied);
    expect(handed.status).toBe(400);
  });

  it('when the service writes its answer in parts, then the client gets them all', async () => {
    const [proxied, handed] = [await call('proxy', '/api/stream'), await call('handoff', '/api/stream')];
    expect(handed).toEqual(proxied);
    expect(handed.text).toBe('one,two');
    expect(handed.headers['cache-control']).toBe('no-store, no-transform');
  });

  it("when the client leaves, then the service's request ends too", async () => {
    const leaving = new AbortController();
    const call = fetch(`${frontUrl}/handoff/api/hold`, { signal: leaving.signal }).catch(() => 'left');
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const [req] = held;
    const ended = new Promise((resolve) => {
      req!.once('close', () => resolve(req!.destroyed));
      setTimeout(() => resolve('still open after 5 s'), 5_000).unref();
    });
    leaving.abort();
    expect(await call).toBe('left');
    // Before: the service's request stayed open for good (a live stream held its slot forever).
    expect(await ended).toBe(true);
  });

  it('when a call is handed over, then the gateway and the service each count it once in the metrics', async () => {
    const registry = await enableMetrics();
    const service = express();
    service.use(httpMetrics('handoff_svc'));
    service.get('/api/counted', (_req, res) => {
      res.json({ ok: true });
    });
    const front = express();
    front.use(httpMetrics('handoff_gw', () => '/api (svc)'));
    const handoff = createHandoff('svc', service, logger);
    front.use((req, res) => handoff(req, res));
    const { server } = await listen(front, 0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/api/counted`);
      expect(res.status).toBe(200);
      await res.text();
      const text = await registry.getSingleMetricAsString('http_server_request_duration_seconds');
      // Before: the service's observation took the gateway's place, and was made twice.
      expect(text).toMatch(/_count\{service="handoff_gw",method="GET",route="\/api \(svc\)",status_code="200"\} 1$/m);
      expect(text).toMatch(/_count\{service="handoff_svc",method="GET",route="\/api\/counted",status_code="200"\} 1$/m);
    } finally {
      await closeServer(server, 1_000);
    }
  });

  it('when the service app leaves the request unanswered, then the client gets 502 bad_gateway', async () => {
    const handed = await call('handoff', '/api/breaks');
    expect(handed.status).toBe(502);
    expect(JSON.parse(handed.text)).toEqual({ message: 'svc did not answer properly', code: 'bad_gateway' });
    expect(handed.headers['cache-control']).toBe('no-store');
  });
});
