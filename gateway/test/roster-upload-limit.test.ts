// The roster upload (POST /api/district/roster/imports) is allowed above BODY_LIMIT_BYTES, up to
// ROSTER_UPLOAD_LIMIT_BYTES, and reaches identity byte for byte (a zip is not checked as JSON); a
// CASE framework package (POST /api/standards/frameworks) up to STANDARDS_UPLOAD_LIMIT_BYTES; a QTI
// package (POST /api/qti/imports) up to QTI_UPLOAD_LIMIT_BYTES, byte for byte too; every other route
// keeps the small limit.
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiRouter,
  closeServer,
  createLogger,
  createServiceApp,
  listen,
  parseConfig,
  ServiceTokens,
} from '@checkpoint/service-kit';
import { createGateway, gatewayConfigSchema, stopGateway } from '../src/index.ts';

const SECRET = 'a-gateway-test-secret-of-at-least-32-characters';
const received: Buffer[] = [];
const router = new ApiRouter()
  .add(
    { method: 'post', path: '/api/district/roster/imports', summary: 'Upload', access: 'public' },
    async ({ req }) => {
      const parts: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) parts.push(chunk);
      received.push(Buffer.concat(parts));
      return { bytes: received.at(-1)!.length };
    },
  )
  .add({ method: 'post', path: '/api/district/roster/imports/:id/apply', summary: 'Apply', access: 'public' }, () => ({
    applied: true,
  }));

const standards = new ApiRouter()
  .add({ method: 'post', path: '/api/standards/frameworks', summary: 'Import', access: 'public' }, ({ req }) => ({
    items: (req.body as { CFItems: unknown[] }).CFItems.length,
  }))
  .add({ method: 'post', path: '/api/qti/imports', summary: 'QTI', access: 'public' }, async ({ req }) => {
    const parts: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) parts.push(chunk);
    received.push(Buffer.concat(parts));
    return { bytes: received.at(-1)!.length };
  });

let base = '';
let assessment: Server;
let gateway: Server;
let upstream: Server;
let app: ReturnType<typeof createGateway>;

beforeAll(async () => {
  const service = await listen(
    createServiceApp({
      name: 'identity',
      logger: createLogger('identity', 'silent'),
      routers: [router],
      ready: async () => true,
      tokens: new ServiceTokens(SECRET, { issuer: 'identity' }),
    }),
    0,
    '127.0.0.1',
  );
  upstream = service.server;
  const assessmentApp = await listen(
    createServiceApp({
      name: 'assessment',
      logger: createLogger('assessment', 'silent'),
      routers: [standards],
      largeBodies: [{ method: 'post', path: '/api/standards/frameworks', limitBytes: 1024 * 1024 }],
      ready: async () => true,
      tokens: new ServiceTokens(SECRET, { issuer: 'assessment' }),
    }),
    0,
    '127.0.0.1',
  );
  assessment = assessmentApp.server;
  const config = parseConfig(gatewayConfigSchema, {
    PORT: '0',
    BODY_LIMIT_BYTES: String(64 * 1024),
    ROSTER_UPLOAD_LIMIT_BYTES: String(1024 * 1024),
    SESSION_REVOCATION_WAIT_SECONDS: '0',
    IDENTITY_URL: service.url,
    ASSESSMENT_URL: assessmentApp.url,
    STANDARDS_UPLOAD_LIMIT_BYTES: String(1024 * 1024),
    QTI_UPLOAD_LIMIT_BYTES: String(1024 * 1024),
    SERVICE_TOKEN_SECRET: SECRET,
  });
  app = createGateway(config, createLogger('gateway', 'silent'));
  ({ server: gateway } = await listen(app, 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
});
afterAll(async () => {
  stopGateway(app);
  await closeServer(gateway, 1000);
  await closeServer(upstream, 1000);
  await closeServer(assessment, 1000);
});

const CSRF = { 'x-csrf-token': 'token-1', cookie: 'cp_csrf=token-1' };
const upload = (pathname: string, body: Uint8Array) =>
  fetch(base + pathname, { method: 'POST', body, headers: { 'content-type': 'application/zip', ...CSRF } });

describe('roster upload limit', () => {
  it('when a roster zip is above BODY_LIMIT_BYTES but within ROSTER_UPLOAD_LIMIT_BYTES, then identity receives it byte for byte', async () => {
    // Random bytes hold many unbalanced brackets: a JSON nesting check would refuse them.
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(512 * 1024)]);
    const res = await upload('/api/district/roster/imports', zip);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ bytes: zip.length });
    expect(received.at(-1)!.equals(zip)).toBe(true);
  });

  it('when a roster upload is above ROSTER_UPLOAD_LIMIT_BYTES, then the gateway answers 413', async () => {
    const res = await upload('/api/district/roster/imports', randomBytes(1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('body_too_large');
  });

  it('when another route gets a body above BODY_LIMIT_BYTES, then it is still 413', async () => {
    const res = await upload(
      '/api/district/roster/imports/00000000-0000-4000-8000-000000000000/apply',
      randomBytes(65 * 1024),
    );
    expect(res.status).toBe(413);
  });

  it('when a CASE package is above BODY_LIMIT_BYTES but within STANDARDS_UPLOAD_LIMIT_BYTES, then the assessment service reads it; above, then 413', async () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({ identifier: `i${i}`, fullStatement: 'x'.repeat(100) }));
    const post = (body: unknown) =>
      fetch(`${base}/api/standards/frameworks`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...CSRF },
      });
    const res = await post({ CFItems: items });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ items: 2000 });
    expect((await post({ CFItems: [...items, ...items, ...items, ...items, ...items] })).status).toBe(413);
  });

  it('when a QTI package is above BODY_LIMIT_BYTES but within QTI_UPLOAD_LIMIT_BYTES, then the assessment service receives it byte for byte; above, then 413', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(512 * 1024)]);
    const res = await upload('/api/qti/imports?classId=00000000-0000-4000-8000-000000000000', zip);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ bytes: zip.length });
    expect(received.at(-1)!.equals(zip)).toBe(true);
    expect((await upload('/api/qti/imports', randomBytes(1024 * 1024 + 1))).status).toBe(413);
  });
});
