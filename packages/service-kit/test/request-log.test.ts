import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen, requestLogger } from '../src/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines under test
type Line = any;

const lines: Line[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(JSON.parse(String(chunk)));
    done();
  },
});
const logger = pino({ level: 'debug' }, sink);
const app = express();
app.use(
  requestLogger({
    logger,
    requestId: () => 'req-00000001',
    successLevel: 'debug',
    slowMs: 100,
    ignore: (req) => req.url === '/healthz',
  }),
);
app.get('/healthz', (_req, res) => void res.end());
app.get('/ok', (_req, res) => void res.json({ ok: true }));
app.get('/missing', (_req, res) => void res.status(404).json({}));
app.get('/broken', (_req, res) => void res.status(500).json({}));
app.get('/slow', (_req, res) => void setTimeout(() => res.json({}), 150));
app.get('/note', (req, res) => {
  req.log.info({ extra: 1 }, 'a note');
  res.json({});
});

let base = '';
let server: Awaited<ReturnType<typeof listen>>['server'];
beforeAll(async () => {
  ({ server } = await listen(app, 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeServer(server, 1000);
});

async function lineFor(path: string, init?: RequestInit): Promise<Line> {
  const res = await fetch(base + path, init);
  await res.arrayBuffer();
  expect(res.headers.get('x-request-id')).toBe('req-00000001');
  await new Promise((r) => setTimeout(r, 20));
  return lines.at(-1);
}

describe('request log', () => {
  it('when a request succeeds, then one small line at the success level carries id, method, path, status and time only', async () => {
    const line = await lineFor('/ok?code=secret-oauth-code', {
      headers: { cookie: 'cp_session=token', authorization: 'Bearer x', 'x-csrf-token': 'c' },
    });
    expect(line.level).toBe(pino.levels.values.debug);
    expect(line.req).toEqual({ id: 'req-00000001', method: 'GET', path: '/ok' });
    expect(line.res).toEqual({ statusCode: 200 });
    expect(typeof line.responseTime).toBe('number');
    const text = JSON.stringify(line);
    for (const secret of ['secret-oauth-code', 'cp_session', 'Bearer', 'x-csrf-token'])
      expect(text).not.toContain(secret);
  });

  it('when a request fails or is slow, then it is logged louder: 4xx info, 5xx error, slow warn', async () => {
    expect((await lineFor('/missing')).level).toBe(pino.levels.values.info);
    expect((await lineFor('/broken')).level).toBe(pino.levels.values.error);
    expect((await lineFor('/slow')).level).toBe(pino.levels.values.warn);
  });

  it("when a handler logs through req.log, then its line carries the request's id, method and path", async () => {
    const before = lines.length;
    await lineFor('/note?token=secret');
    const note = lines.slice(before).find((l) => l.msg === 'a note');
    expect(note).toMatchObject({ extra: 1, req: { id: 'req-00000001', method: 'GET', path: '/note' } });
    expect(JSON.stringify(note)).not.toContain('secret');
  });

  it('when a request is ignored, then nothing is logged', async () => {
    const before = lines.length;
    await lineFor('/healthz');
    expect(lines.length).toBe(before);
  });
});
