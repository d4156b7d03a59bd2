// The gateway on its own: no services behind it, a temporary built web app.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, createLogger, listen, parseConfig } from '@checkpoint/service-kit';
import { createGateway, gatewayConfigSchema, serviceForPath } from '../src/index.ts';

let base = '';
let server: Server;
let webDist = '';

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'gw-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root">checkpoint</div>');
  await writeFile(path.join(webDist, 'landing.html'), '<!doctype html><div id="root"><h1>landing</h1></div>');
  await writeFile(
    path.join(webDist, 'landing.es.html'),
    '<!doctype html><html lang="es"><div id="root"><h1>portada</h1></div>',
  );
  await writeFile(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  const config = parseConfig(gatewayConfigSchema, {
    WEB_DIST: webDist,
    PORT: '0',
    BODY_LIMIT_BYTES: '2048',
    SERVICE_TOKEN_SECRET: 'a-test-secret-of-at-least-32-characters',
    // A service URL where nothing listens: the gateway must answer 503, not hang or 500.
    CLASS_URL: 'http://127.0.0.1:9',
  });
  ({ server } = await listen(createGateway(config, createLogger('gateway', 'silent')), 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await closeServer(server, 1000);
  await rm(webDist, { recursive: true, force: true });
});

describe('gateway routing', () => {
  it('when a spec path is looked up, then its owning service is found', () => {
    expect(serviceForPath('/api/auth/simple-login')).toBe('identity');
    expect(serviceForPath('/api/classes/abc/students')).toBe('class');
    expect(serviceForPath('/api/classes/abc/assessments')).toBe('assessment');
    expect(serviceForPath('/api/classes/abc/results')).toBe('analytics');
    expect(serviceForPath('/api/classes/abc/grid')).toBe('analytics');
    expect(serviceForPath('/api/assessments/abc/results')).toBe('analytics');
    expect(serviceForPath('/api/assessments/abc/progress')).toBe('analytics');
    expect(serviceForPath('/api/assessments/abc/responses')).toBe('assessment');
    expect(serviceForPath('/api/dashboard/live')).toBe('analytics');
    expect(serviceForPath('/api/reports/export')).toBe('analytics');
    // The mastery and common report exports are analytics', inside the assessment service's prefix.
    expect(serviceForPath('/api/mastery/students/abc/export')).toBe('analytics');
    expect(serviceForPath('/api/common-assessments/abc/report')).toBe('analytics');
    expect(serviceForPath('/api/common-assessments/abc/report/export')).toBe('analytics');
    expect(serviceForPath('/api/common-assessments/abc/publish')).toBe('assessment');
    expect(serviceForPath('/api/student/classes')).toBe('class');
    expect(serviceForPath('/api/student/results')).toBe('assessment');
    expect(serviceForPath('/api/assessments/abc/support-material/support')).toBe('generation');
    expect(serviceForPath('/api/assessments/abc/questions')).toBe('assessment');
    expect(serviceForPath('/api/assessments/abc/questions/from-bank')).toBe('assessment');
    expect(serviceForPath('/api/bank/items')).toBe('assessment');
    expect(serviceForPath('/api/bank/items/abc')).toBe('assessment');
    expect(serviceForPath('/api/support-content/r1/submit')).toBe('generation');
    expect(serviceForPath('/api/admin/stats')).toBe('analytics');
    expect(serviceForPath('/api/district')).toBe('identity');
    expect(serviceForPath('/api/district/users/u1')).toBe('identity');
    expect(serviceForPath('/api/districts')).toBeUndefined();
    expect(serviceForPath('/api/all-results')).toBe('analytics');
    expect(serviceForPath('/api/unknown')).toBeUndefined();
  });

  it('when a service is not configured, then 503 names it', async () => {
    const res = await fetch(`${base}/api/assessments`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: 'assessment is unavailable' });
  });

  it('when a configured service does not answer, then 503 names it', async () => {
    const res = await fetch(`${base}/api/classes`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: 'class is unavailable' });
  });

  it('when an /api path is unknown, then 404 JSON', async () => {
    const res = await fetch(`${base}/api/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('when the body is over the limit, then 413', async () => {
    const res = await fetch(`${base}/api/classes`, { method: 'POST', body: 'x'.repeat(4096) });
    expect(res.status).toBe(413);
  });
});

describe('gateway web app', () => {
  it('when any app route is requested, then index.html is served (SPA fallback) with security headers', async () => {
    const res = await fetch(`${base}/class/123`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('checkpoint');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('when a visitor without a session asks for /, then the pre-rendered landing page is served', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>landing</h1>');
    expect(res.headers.get('vary')).toMatch(/cookie/i);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('when a visitor without a session asks for / in Spanish, then the Spanish landing page is served; any other language gets English', async () => {
    for (const language of ['es', 'es-MX,es;q=0.9,en;q=0.8', 'fr-FR, es;q=0.5']) {
      const res = await fetch(`${base}/`, { headers: { 'accept-language': language } });
      expect(await res.text(), language).toContain('<h1>portada</h1>');
      expect(res.headers.get('vary')).toMatch(/accept-language/i);
    }
    for (const language of ['en-US,en;q=0.9', 'fr-FR', 'en;q=0.9, es;q=0.5', '']) {
      const res = await fetch(`${base}/`, { headers: { 'accept-language': language } });
      expect(await res.text(), language).toContain('<h1>landing</h1>');
    }
  });

  it('when a visitor with a session or refresh cookie asks for /, then the app is served', async () => {
    for (const cookie of ['cp_session=x', 'cp_refresh=y', 'cp_csrf=z; cp_refresh=y']) {
      const res = await fetch(`${base}/`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('checkpoint');
    }
    // The CSRF cookie alone is no session: any API answer sets it.
    const res = await fetch(`${base}/`, { headers: { cookie: 'cp_csrf=z' } });
    expect(await res.text()).toContain('<h1>landing</h1>');
  });

  it('when an asset is requested, then it is cached for long and compressed when asked', async () => {
    const res = await fetch(`${base}/assets/app.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('when a missing asset is requested, then 404 rather than index.html', async () => {
    const res = await fetch(`${base}/assets/missing.js`);
    expect(res.status).toBe(404);
  });
});
