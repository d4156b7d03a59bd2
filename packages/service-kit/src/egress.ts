// Calls a service makes to an address a user gave (a district's SSO issuer, a CASE provider's
// package URL): the egress rules they share. https only; plain http and the machine's own
// addresses only when `allowLoopback` says so (development and tests); never an address of a
// private, link-local or otherwise internal network, checked on the address each connection
// actually uses (so a name that resolves elsewhere the second time cannot reach inside); no
// credentials in the URL; a bounded time and body; at most a few redirects, each checked again.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { AppError, ValidationError } from './errors.ts';

/** Host names of this machine that a local provider (development, tests) is reached at. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** A loopback host as written in a URL (127.0.0.1, localhost, [::1]). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Addresses no outside provider has: private, shared, link-local, unspecified, multicast, reserved. */
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

/** Why an address may not be called; undefined when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  let family = isIP(address) === 6 ? ('ipv6' as const) : ('ipv4' as const);
  let ip = address;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) [ip, family] = [mapped[1]!, 'ipv4'];
  if (loopback.check(ip, family)) return allowLoopback ? undefined : 'an address of this machine';
  if (internal.check(ip, family)) return 'an address of a private or internal network';
  return undefined;
}

export interface EgressOptions {
  /** The request field that named the URL (the 400 names it). */
  field: string;
  /** http and this machine's addresses (development and tests only). */
  allowLoopback: boolean;
}

/** The URL if the rules allow calling it (before any address is resolved); else 400 naming `field`. */
export function checkOutboundUrl(raw: string, options: EgressOptions): URL {
  const refuse = (message: string, hint: string) => new ValidationError(message, { [options.field]: hint });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('The address must be a URL', 'Must be a URL such as https://example.org/…');
  }
  const local = isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local && options.allowLoopback))
    throw refuse('The address must be an https URL', 'Must start with https://');
  if (url.username || url.password) throw refuse('The address must not hold a user or password', 'Remove user:pass@');
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal)) {
    const why = refusedAddress(literal, options.allowLoopback);
    if (why) throw refuse(`The address is ${why}`, `Must be a public address (not ${why})`);
  } else if (local && !options.allowLoopback) {
    throw refuse('The address is an address of this machine', 'Must be a public address');
  }
  return url;
}

export interface FetchOutboundOptions extends EgressOptions {
  /** Largest body read; more is 413. */
  maxBytes: number;
  /** Whole call, redirects included. */
  timeoutMs: number;
  /** Sent as Accept. */
  accept?: string;
  /** POSTs this body instead of a GET (a redirect is then refused, not followed). */
  post?: { body: string; contentType: string; authorization?: string };
}

const MAX_REDIRECTS = 3;

/**
 * GETs (or POSTs `post` to) a URL a user gave under the egress rules and returns its body: 400 naming `field` when the
 * rules refuse it, it cannot be reached, or it answers other than 2xx; 413 when the body is larger
 * than `maxBytes`.
 */
export async function fetchOutbound(raw: string, options: FetchOutboundOptions): Promise<Buffer> {
  const deadline = Date.now() + options.timeoutMs;
  let url = checkOutboundUrl(raw, options);
  for (let hop = 0; ; hop++) {
    const answer = await getOnce(url, options, Math.max(1, deadline - Date.now()));
    if ('body' in answer) return answer.body;
    if (hop >= MAX_REDIRECTS || options.post)
      throw new ValidationError(`The address redirected ${options.post ? 'a post' : 'too many times'}`, {
        [options.field]: 'Give the final address',
      });
    url = checkOutboundUrl(new URL(answer.location, url).toString(), options);
  }
}

function getOnce(
  url: URL,
  options: FetchOutboundOptions,
  timeoutMs: number,
): Promise<{ body: Buffer } | { location: string }> {
  const unreachable = (why: string) =>
    new ValidationError(`The address could not be read: ${why}`, { [options.field]: `Could not be read: ${why}` });
  // Every address a connection uses is checked as it connects (a DNS answer is not trusted twice).
  const lookup = (
    hostname: string,
    opts: LookupAllOptions,
    callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) =>
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const bad = addresses.map((a) => refusedAddress(a.address, options.allowLoopback)).find(Boolean);
      if (bad) return callback(Object.assign(new Error(`${hostname} is ${bad}`), { code: 'EGRESS_REFUSED' }), []);
      callback(null, addresses);
    });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const post = options.post;
    const headers: Record<string, string> = { accept: options.accept ?? '*/*' };
    if (post) {
      headers['content-type'] = post.contentType;
      headers['content-length'] = String(Buffer.byteLength(post.body));
      if (post.authorization) headers.authorization = post.authorization;
    }
    const req = client.request(
      url,
      { method: post ? 'POST' : 'GET', lookup: lookup as never, timeout: timeoutMs, headers },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ location: res.headers.location });
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return reject(unreachable(`it answered ${status}`));
        }
        const declared = Number(res.headers['content-length']);
        const tooLarge = () =>
          new AppError('too_large', 'body_too_large', `The document is larger than ${options.maxBytes} bytes`);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          res.destroy();
          return reject(tooLarge());
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(tooLarge());
            return;
          }
          parts.push(chunk);
        });
        res.on('end', () => resolve({ body: Buffer.concat(parts) }));
        res.on('error', (err) => reject(unreachable(err.message)));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => reject(unreachable(err.message)));
    req.end(post?.body);
  });
}
