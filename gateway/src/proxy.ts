// Passes one /api call on to its service over a kept-alive connection, and the service's answer
// back. What http-proxy(-middleware) did for the gateway, without its per-request layers of
// option merging, URL parsing and event passes (bench/README.md, "Cost per answer"): the request's
// headers with the usual X-Forwarded-* added, the body the gateway has already read (inflated when
// it came compressed), `no-store` on every answer, 503/502 when the service cannot answer.
import { Agent, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from '@checkpoint/service-kit';

export type Proxy = (req: IncomingMessage & { rawBody?: Buffer }, res: ServerResponse) => void;

/** Hop-by-hop headers (RFC 9110 §7.6.1; those the Connection header names too) and the framing the gateway sets itself. */
const NOT_PASSED_ON = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'content-encoding',
]);
const NOT_PASSED_BACK = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'trailer',
  'upgrade',
]);
/** Longest an unused kept-alive connection to a service stays open (less when the service says less). */
const IDLE_UPSTREAM_SOCKET_MS = 60_000;
/** Errors meaning the service is not there (down, restarting, its connection dropped) or cannot take the call now: 503, else 502. */
const DOWN = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET', 'EQUEUETIMEDOUT']);
/** Connections kept to one service at most; calls beyond wait for one (bounded by the timeout). */
const MAX_UPSTREAM_SOCKETS = 256;

export function createProxy(
  service: string,
  target: string,
  timeoutMs: number,
  logger: Logger,
  { maxSockets = MAX_UPSTREAM_SOCKETS }: { maxSockets?: number } = {},
): Proxy {
  const base = new URL(target);
  const hostname = base.hostname.replace(/^\[|\]$/g, '');
  const port = Number(base.port || 80);
  // Reuse connections to the service (one per request would cost a TCP handshake each). An idle one
  // is closed here a second before the service's announced keep-alive timeout (Node applies the
  // `Keep-Alive: timeout=` hint only under an agent timeout of its own), so that a request is never
  // sent down a connection the service is closing at that moment (ECONNRESET, answered 503).
  const agent = new Agent({ keepAlive: true, maxSockets, timeout: IDLE_UPSTREAM_SOCKET_MS });

  return (req, res) => {
    const body = req.rawBody;
    const headers = outgoingHeaders(req, body);
    const upstream = request({ hostname, port, method: req.method, path: req.url, headers, agent });
    let failed = false;
    let clientLeft = false;
    let answered = false;
    const fail = (err: Error & { code?: string }) => {
      // The client leaving (a closed page, the live stream's end) is no failure of the service.
      if (failed || clientLeft) return;
      failed = true;
      logger.warn({ err, service }, 'upstream error');
      // Once the service's status and headers are on `res` (even if not sent yet: they go with the
      // first chunk), an error answer would go out under them (its Content-Length, cookies): the
      // connection is cut instead, as when the answer had begun.
      if (res.headersSent || answered) {
        res.destroy();
        return;
      }
      answerFailure(res, service, DOWN.has(err.code ?? '') ? 'unavailable' : 'bad_gateway');
    };
    // As http-proxy's proxyTimeout: a service silent for this long is given up (its socket reset).
    upstream.setTimeout(timeoutMs, () => {
      upstream.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    });
    // That timeout starts once the call has a connection. A call waiting for one (every connection
    // to the service busy, so the agent queued it) is bounded by it as well: an overloaded service
    // answers 503 in time instead of leaving the client waiting for as long as the queue ahead of it
    // takes. A request without its connection reports no error until it gets one: answered here.
    // (It stays in the agent's queue until a connection frees, then hands that connection back.)
    if (Object.values(agent.requests).some((waiting) => waiting?.includes(upstream as never))) {
      const queued = setTimeout(() => {
        const err = Object.assign(new Error('no connection to the service came free'), { code: 'EQUEUETIMEDOUT' });
        fail(err);
        upstream.destroy(err);
      }, timeoutMs);
      upstream.once('socket', () => clearTimeout(queued));
      upstream.once('close', () => clearTimeout(queued));
    }
    upstream.on('error', fail);
    upstream.on('response', (answer) => {
      answered = true;
      res.statusCode = answer.statusCode ?? 502;
      if (answer.statusMessage) res.statusMessage = answer.statusMessage;
      const h = answer.headers;
      const named = connectionOptions(h.connection);
      for (const name in h) {
        if (NOT_PASSED_BACK.has(name) || named?.has(name)) continue;
        // The gateway's own cookies (a renewed session, the CSRF cookie) go out beside the service's.
        if (name === 'set-cookie') res.appendHeader(name, h[name]!);
        else res.setHeader(name, h[name]!);
      }
      res.setHeader('cache-control', noStore(h['cache-control']));
      answer.on('error', fail);
      answer.pipe(res);
    });
    // The client left (closed the page, the live stream): the service's work on it is dropped too.
    res.on('close', () => {
      if (res.writableFinished) return;
      clientLeft = true;
      upstream.destroy();
    });
    upstream.end(body && body.length > 0 ? body : undefined);
  };
}

/** The answer to a call its service could not take (503) or answered wrongly (502). */
export function answerFailure(res: ServerResponse, service: string, failure: 'unavailable' | 'bad_gateway'): void {
  res.writeHead(failure === 'unavailable' ? 503 : 502, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
  });
  res.end(
    JSON.stringify(
      failure === 'unavailable'
        ? { message: `${service} is unavailable`, code: failure }
        : { message: `${service} did not answer properly`, code: failure },
    ),
  );
}

/**
 * The headers a service gets for `req`: the client's own but the hop-by-hop ones, with
 * X-Forwarded-*, and the length of `body` (the gateway has read it, inflated when it came compressed).
 */
export function outgoingHeaders(req: IncomingMessage, body: Buffer | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const h: IncomingHttpHeaders = req.headers;
  // Headers the client's Connection header names are for the gateway alone; the gateway's own
  // (x-checkpoint-*: the service token) are never the client's to drop.
  const named = connectionOptions(h.connection);
  for (const name in h)
    if (!NOT_PASSED_ON.has(name) && !(named?.has(name) && !name.startsWith('x-checkpoint-'))) out[name] = h[name]!;
  // As http-proxy's xfwd: the client's address, port and scheme appended, the host kept.
  const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean };
  const append = (name: string, value: string) => {
    const before = h[name];
    out[name] = before ? `${String(before)},${value}` : value;
  };
  append('x-forwarded-for', socket.remoteAddress ?? '');
  append('x-forwarded-port', /:(\d+)/.exec(h.host ?? '')?.[1] ?? (socket.encrypted ? '443' : '80'));
  append('x-forwarded-proto', socket.encrypted ? 'https' : 'http');
  out['x-forwarded-host'] = (h['x-forwarded-host'] as string | undefined) || h.host || '';
  if (body) out['content-length'] = String(body.length);
  return out;
}

/** no-store on every API answer, kept alongside what the service says (no-transform on the live stream). */
export function noStore(cacheControl: string | undefined): string {
  if (!cacheControl) return 'no-store';
  return /(^|,)\s*no-store\s*(,|$)/i.test(cacheControl) ? cacheControl : `no-store, ${cacheControl}`;
}

/** The header names a Connection header lists (hop-by-hop as well, RFC 9110 §7.6.1); none for the usual keep-alive. */
function connectionOptions(value: string | undefined): Set<string> | undefined {
  if (!value || value === 'keep-alive' || value === 'close') return undefined;
  return new Set(value.split(',').map((token) => token.trim().toLowerCase()));
}
