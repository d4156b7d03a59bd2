// The proxy alone (src/proxy.ts) between a raw client and a raw service, for what only a service
// that misbehaves or a client that names hop-by-hop headers shows.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, createLogger, listen } from '@checkpoint/service-kit';
import express from 'express';
import { createProxy } from '../src/proxy.ts';

let received: IncomingHttpHeaders = {};
let service: Server;
let front: Server;
let frontPort = 0;

beforeAll(async () => {
  service = createServer((req, res) => {
    received = req.headers;
    if (req.url === '/api/dies-after-headers') {
      // Status and headers (with a length and a cookie), then the process dies before the body.
      res.socket!.write(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\nSet-Cookie: s=1\r\nX-From-Service: yes\r\n\r\n',
      );
      res.socket!.destroy();
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      connection: 'x-service-hop',
      'x-service-hop': 'for the gateway only',
      'x-kept': 'yes',
    });
    res.end('{"ok":true}');
  });
  const proxy = await proxyTo(service);
  const app = express();
  app.use((req, res) => {
    req.headers['x-checkpoint-token'] = 'signed-by-the-gateway';
    proxy(req, res);
  });
  ({ server: front } = await listen(app, 0, '127.0.0.1'));
  frontPort = (front.address() as { port: number }).port;
});

afterAll(async () => {
  await closeServer(front, 1_000);
  service.closeAllConnections();
  await new Promise((resolve) => service.close(resolve));
});

/** Starts `service` on a free port of 127.0.0.1 and makes the gateway's proxy to it. */
async function proxyTo(service: Server) {
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
  return createProxy('svc', url, 5_000, createLogger('gateway', 'silent'));
}

/** Sends one raw request and reads what comes back until the connection closes (or 3 s). */
function raw(text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(frontPort, '127.0.0.1');
    let out = '';
    socket.on('data', (chunk) => (out += chunk.toString('latin1')));
    socket.on('error', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.setTimeout(3_000, () => socket.destroy());
    socket.write(text);
  });
}

describe('gateway proxy', () => {
  it('when the service dies after its status and headers, then no answer goes out under its headers (the connection is cut)', async () => {
    const answer = await raw('GET /api/dies-after-headers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    // Before: a 503 JSON body of 54 bytes under the service's `Content-Length: 5` and its cookie,
    // leaving 49 bytes of junk on a kept-alive connection.
    expect(answer).not.toMatch(/content-length: 5\r\n/i);
    expect(answer).not.toMatch(/set-cookie: s=1/i);
    expect(answer).not.toMatch(/x-from-service/i);
  });

  it("when the client names headers in Connection, then they stop at the gateway, but the gateway's own token goes on", async () => {
    const answer = await raw(
      'GET /api/plain HTTP/1.1\r\nHost: x\r\nConnection: close, X-Client-Hop, X-Checkpoint-Token\r\n' +
        'X-Client-Hop: secret\r\nX-Other: kept\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(received['x-client-hop']).toBeUndefined();
    expect(received['x-other']).toBe('kept');
    expect(received['x-checkpoint-token']).toBe('signed-by-the-gateway');
    // And back: what the service's Connection header names stays with the gateway.
    expect(answer).not.toMatch(/x-service-hop/i);
    expect(answer).toMatch(/x-kept: yes/i);
  });

  it("when a kept-alive connection to the service idles, then the gateway closes it before the service's announced timeout", async () => {
    // The service closes idle connections after 3 s and says so (Keep-Alive: timeout=3).
    let closedByGateway = false;
    const quick = createServer((_req, res) => res.end('{}'));
    quick.keepAliveTimeout = 3_000;
    quick.on('connection', (socket) => socket.on('end', () => (closedByGateway = true)));
    const proxy = await proxyTo(quick);
    const app = express().use((req, res) => proxy(req, res));
    const { server } = await listen(app, 0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/api/x`);
      expect(res.status).toBe(200);
      await res.text();
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      // The service saw the connection's end: the gateway closed it (about 2 s in). Had the service
      // closed it first (at 3 s), it would have seen no end from the gateway.
      expect(closedByGateway).toBe(true);
    } finally {
      await closeServer(server, 1_000);
      quick.closeAllConnections();
      await new Promise((resolve) => quick.close(resolve));
    }
  });
});

describe('gateway proxy, every connection to the service busy', () => {
  it('when a call waits for a connection longer than the upstream timeout, then it is answered 503 at that timeout', async () => {
    // One connection allowed; the service answers the first call slowly (a chunk every 200 ms for
    // 3 s, never silent for the timeout), holding that connection all along.
    const slow = createServer((req, res) => {
      if (req.url !== '/api/first') return res.end('{}');
      res.writeHead(200, { 'content-type': 'text/plain' });
      const tick = setInterval(() => res.write('.'), 200);
      setTimeout(() => (clearInterval(tick), res.end()), 3_000);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
    const proxy = createProxy('svc', url, 500, createLogger('gateway', 'silent'), { maxSockets: 1 });
    const { server } = await listen(
      express().use((req, res) => proxy(req, res)),
      0,
      '127.0.0.1',
    );
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const first = fetch(`${base}/api/first`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      const second = await fetch(`${base}/api/second`);
      const waited = performance.now() - started;
      // Before: it waited for the first call's connection (about 3 s), then got the service's 200.
      expect(second.status).toBe(503);
      expect(await second.json()).toEqual({ message: 'svc is unavailable', code: 'unavailable' });
      expect(waited).toBeLessThan(2_000);
      // The first call, never silent that long, is answered in full.
      const answered = await first;
      expect(answered.status).toBe(200);
      expect((await answered.text()).length).toBeGreaterThan(10);
    } finally {
      await closeServer(server, 1_000);
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
