// closeServer's grace: a request sent on a kept-alive connection just as the process is told to
// stop is answered (closing its connection), not reset; without a grace such a connection is
// closed at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeServer } from '../src/lifecycle.ts';

async function keptAliveServer() {
  const server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const get = () =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        })
        .on('error', reject);
    });
  return { server, agent, get };
}

describe('closeServer', () => {
  it('when a request comes on a kept-alive connection during the grace, then it is answered with Connection: close', async () => {
    const { server, agent, get } = await keptAliveServer();
    expect((await get()).connection).toBe('keep-alive');
    const closed = closeServer(server, 1_000, { graceMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await get()).toEqual({ status: 200, connection: 'close' });
    await closed;
    expect(server.listening).toBe(false);
    agent.destroy();
  });

  it('when there is no grace, then the idle kept-alive connection is closed at once', async () => {
    const { server, agent, get } = await keptAliveServer();
    await get();
    const sockets = Object.values(agent.freeSockets).flat();
    expect(sockets).toHaveLength(1);
    const ended = new Promise((resolve) => sockets[0]!.once('close', resolve));
    await closeServer(server, 1_000);
    await ended;
    expect(server.listening).toBe(false);
    agent.destroy();
  });
});
