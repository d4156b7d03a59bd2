// The egress rules for addresses users give (SSO issuers, CASE package URLs), against a real
// server on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, checkOutboundUrl, fetchOutbound, refusedAddress, ValidationError } from '../src/index.ts';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/big') return void res.end('x'.repeat(5000));
    if (req.url === '/redirect-inside') return void res.writeHead(302, { location: 'https://10.0.0.1/x' }).end();
    if (req.url === '/redirect-here') return void res.writeHead(302, { location: '/ok' }).end();
    if (req.url === '/missing') return void res.writeHead(404).end();
    if (req.url === '/echo' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += String(c)));
      req.on('end', () =>
        res.end(JSON.stringify({ body, type: req.headers['content-type'], auth: req.headers.authorization ?? null })),
      );
      return;
    }
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const opts = (allowLoopback: boolean) => ({ field: 'url', allowLoopback, maxBytes: 1000, timeoutMs: 5000 });

/** The error a call ends with. */
async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a refusal');
}

describe('egress rules', () => {
  it('when an address is private, link-local, mapped or loopback, then it is refused (loopback only unless allowed)', () => {
    for (const a of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', 'fd00::1', 'fe80::1'])
      expect(refusedAddress(a, true), a).toBeDefined();
    expect(refusedAddress('::ffff:10.0.0.1', true)).toBeDefined();
    expect(refusedAddress('127.0.0.1', false)).toBeDefined();
    expect(refusedAddress('::1', false)).toBeDefined();
    expect(refusedAddress('127.0.0.1', true)).toBeUndefined();
    expect(refusedAddress('93.184.216.34', false)).toBeUndefined();
  });

  it('when a URL is not https, holds credentials or names an internal address, then 400 names the field', () => {
    for (const raw of [
      'not a url',
      'http://example.org/x',
      'ftp://example.org/x',
      'https://user:pw@example.org/',
      'https://10.0.0.5/case',
      'https://[fe80::1]/case',
      'https://localhost/case',
      'http://127.0.0.1:8080/case',
    ]) {
      let err: unknown;
      try {
        checkOutboundUrl(raw, { field: 'url', allowLoopback: false });
      } catch (e) {
        err = e;
      }
      expect(err, raw).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).fields).toHaveProperty('url');
    }
    expect(checkOutboundUrl('https://case.example.org/ims/case/v1p0/CFPackages/1', opts(false)).hostname).toBe(
      'case.example.org',
    );
  });

  it('when a local server is called without loopback allowed, then it is refused; with it, then its body is read', async () => {
    expect(await failure(fetchOutbound(`${base}/ok`, opts(false)))).toBeInstanceOf(ValidationError);
    expect((await fetchOutbound(`${base}/ok`, opts(true))).toString()).toBe('{"ok":true}');
  });

  it('when the body is larger than the limit, then 413', async () => {
    const err = await failure(fetchOutbound(`${base}/big`, opts(true)));
    expect(err.kind).toBe('too_large');
  });

  it('when it redirects inside the network, then it is refused; a redirect on the same server is followed', async () => {
    const err = await failure(fetchOutbound(`${base}/redirect-inside`, opts(true)));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toMatch(/private or internal/);
    expect((await fetchOutbound(`${base}/redirect-here`, opts(true))).toString()).toBe('{"ok":true}');
  });

  it('when the address answers other than 2xx, then 400 names the field and the status', async () => {
    const err = await failure(fetchOutbound(`${base}/missing`, opts(true)));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fields?.url).toMatch(/404/);
  });

  it('when a body is posted, then it is sent with its type and authorization, and a redirect is refused, not followed', async () => {
    const post = { body: '{"a":1}', contentType: 'application/json', authorization: 'Bearer t' };
    const echoed = JSON.parse((await fetchOutbound(`${base}/echo`, { ...opts(true), post })).toString());
    expect(echoed).toEqual({ body: '{"a":1}', type: 'application/json', auth: 'Bearer t' });
    const redirected = await failure(fetchOutbound(`${base}/redirect-here`, { ...opts(true), post }));
    expect(redirected).toBeInstanceOf(ValidationError);
    expect(redirected.message).toMatch(/redirected a post/);
    expect((await failure(fetchOutbound(`${base}/echo`, { ...opts(false), post }))).fields).toHaveProperty('url');
  });
});
