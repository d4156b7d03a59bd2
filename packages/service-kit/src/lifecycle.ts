// Listening and graceful shutdown: stop accepting, drain in-flight requests, then run the
// remaining stop steps, all within a bounded time.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export async function listen(app: Express, port: number, host: string): Promise<{ server: Server; url: string }> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address() as AddressInfo;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}` };
}

/** Closes the server: refuses new connections, lets in-flight requests finish up to timeoutMs. */
export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Keep-alive connections become idle once their request is answered: close them as they do.
    const sweeper = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => {
      server.closeAllConnections();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweeper);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Runs stop() once on SIGTERM/SIGINT; exits non-zero if it does not finish in time. */
export function onShutdownSignal(stop: () => Promise<void>, timeoutMs: number, log: (msg: string) => void): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received, shutting down`);
    const killer = setTimeout(() => {
      log('shutdown took too long, exiting');
      process.exit(1);
    }, timeoutMs + 2_000);
    killer.unref();
    stop().then(
      () => process.exit(0),
      (err) => {
        log(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
