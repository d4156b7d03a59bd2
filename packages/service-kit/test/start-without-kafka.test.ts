// A service's start-up does not wait for Kafka (docs/kubernetes.md, probes): with a broker that takes
// connections and never answers (a hung broker, a partition), the service listens and is ready at
// once, serves, and stops promptly; its consumer group keeps trying in the background meanwhile.
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import { ApiRouter, createLogger, provisionServiceDatabase, ServiceTokens, startService } from '../src/index.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';

let postgres: PostgresHandle;
let blackHole: net.Server;
const sockets: net.Socket[] = [];
const migrationsDir = mkdtempSync(path.join(tmpdir(), 'no-migrations-'));

beforeAll(async () => {
  postgres = await startPostgres();
  blackHole = net.createServer((socket) => sockets.push(socket.on('error', () => {})));
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  sockets.forEach((s) => s.destroy());
  blackHole?.close();
  await postgres?.stop();
  rmSync(migrationsDir, { recursive: true, force: true });
});

describe('start-up without an answering broker', () => {
  it('when the broker takes connections and never answers, then the service serves and is ready within seconds, and stops promptly', async () => {
    const handled: string[] = [];
    const started = Date.now();
    const service = await startService(
      {
        name: 'hung_kafka_probe',
        configSchema: z.object({}),
        migrationsDir,
        create: () => ({
          routers: [
            new ApiRouter().add({ method: 'get', path: '/api/ping', summary: 'ping', access: 'public' }, () => ({
              pong: true,
            })),
          ],
          subscriptions: [
            {
              groupId: 'hung_kafka_probe',
              topics: ['checkpoint.probe.v1'],
              handler: async (m) => void handled.push(m.key),
            },
          ],
        }),
      },
      {
        env: {
          DATABASE_URL: await provisionServiceDatabase(postgres.url, 'hung_kafka_probe'),
          KAFKA_BROKERS: `127.0.0.1:${(blackHole.address() as AddressInfo).port}`,
          SERVICE_TOKEN_SECRET: SECRET,
          PORT: '0',
          HOST: '127.0.0.1',
        },
        logger: createLogger('test', 'silent'),
      },
    );
    try {
      // Before: the producer's connect (up to KafkaJS's 30 s) and the groups' joins were awaited.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const headers = await new ServiceTokens(SECRET, { issuer: 'gateway' }).headers('hung_kafka_probe');
      expect(await (await fetch(`${service.url}/api/ping`, { headers })).json()).toEqual({ pong: true });
      expect(sockets.length).toBeGreaterThan(0); // the bus is trying the broker meanwhile
    } finally {
      const stopping = Date.now();
      await service.stop();
      // The relay abandons a publish stuck on the broker after 10 s, the bus its disconnects after
      // 5 s (KafkaJS's own wait for a connection that never answers is 30 s).
      expect(Date.now() - stopping).toBeLessThan(20_000);
    }
    expect(handled).toEqual([]);
  }, 60_000);
});
