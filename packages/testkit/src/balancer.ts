// A round-robin TCP balancer in front of a service's replicas, as a Kubernetes Service is (kube-proxy
// spreading connections over the ready endpoints): the gateway keeps one URL per service. Each
// replica's /readyz is polled; a replica that does not answer ready leaves the rotation, and a
// connection that cannot reach the chosen replica tries the next one (a killed replica is dropped
// at once, without waiting for the next poll). It counts connections per replica, so that the test
// can show both replicas served.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface Backend {
  port: number;
  ready: boolean;
  /** Client connections this backend took. */
  connections: number;
}

export interface Balancer {
  name: string;
  port: number;
  url: string;
  backends: Backend[];
  close(): Promise<void>;
}

const CHECK_EVERY_MS = 500;
const CHECK_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;

export async function startBalancer(name: string, ports: number[], listenPort = 0): Promise<Balancer> {
  if (ports.length === 0) throw new Error(`balancer ${name}: no backend ports`);
  const backends: Backend[] = ports.map((port) => ({ port, ready: false, connections: 0 }));
  const open = new Set<Socket>();
  let next = 0;
  let closed = false;

  /** The next backend in turn among the ready ones (all of them when none is ready). */
  const pick = (tried: Set<Backend>): Backend | undefined => {
    const candidates = backends.filter((b) => !tried.has(b));
    const ready = candidates.filter((b) => b.ready);
    const pool = ready.length > 0 ? ready : candidates;
    if (pool.length === 0) return undefined;
    return pool[next++ % pool.length];
  };

  const forward = (client: Socket, tried = new Set<Backend>()) => {
    const backend = pick(tried);
    if (!backend) {
      client.destroy();
      return;
    }
    tried.add(backend);
    const upstream = connect({ host: '127.0.0.1', port: backend.port });
    open.add(upstream);
    upstream.setTimeout(CONNECT_TIMEOUT_MS);
    let connected = false;
    upstream.once('timeout', () => {
      if (!connected) upstream.destroy(new Error('connect timeout'));
    });
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      backend.connections++;
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.on('error', () => {
      if (!connected) {
        // Refused or timed out: that replica is gone until its readiness says otherwise.
        backend.ready = false;
        upstream.destroy();
        if (!client.destroyed) forward(client, tried);
        return;
      }
      client.destroy();
    });
    upstream.once('close', () => {
      open.delete(upstream);
      if (connected) client.destroy();
    });
    client.once('close', () => upstream.destroy());
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.on('error', () => client.destroy());
    client.once('close', () => open.delete(client));
    forward(client);
  });

  const check = async (backend: Backend) => {
    try {
      const res = await fetch(`http://127.0.0.1:${backend.port}/readyz`, {
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
      await res.body?.cancel();
      backend.ready = res.ok;
    } catch {
      backend.ready = false;
    }
  };
  const poll = async () => {
    while (!closed) {
      await Promise.all(backends.map(check));
      await new Promise((r) => setTimeout(r, CHECK_EVERY_MS));
    }
  };
  const polling = poll();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`balancer ${name}: no port`);
  return {
    name,
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    backends,
    close: async () => {
      closed = true;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await polling;
    },
  };
}
