// What every /api call goes through once its body is read: the nesting check, the CSRF cookie,
// the route to its service, the session, CSRF, the service token, then the service. Two ways lead
// here: Express (app.ts: uploads with their own limits, compressed bodies, the OpenAPI document)
// and the fast path below, which takes the common call (a JSON body or none, not compressed) past
// Express's router and body parser: the same middleware functions called one after the other,
// the body read once. Express's per-request work (re-prototyping the request and the answer,
// walking a dozen layers) was most of what the gateway spent beyond a bare proxy hop
// (bench/README.md, "Cost per answer").
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import getRawBody from 'raw-body';
import { bodyParserError, jsonNestingExceeds, tooDeepError, type ServiceTokens } from '@checkpoint/service-kit';
import { applyServiceToken, type SessionVerifier } from './auth.ts';
import { requestCookies } from './cookies.ts';
import { allowFramingByLms, csrfProblem, ensureCsrfCookie, isCrossSiteFormPost } from './csrf.ts';
import type { Proxy } from './proxy.ts';
import type { RevokedSessions } from './revocations.ts';

export type ApiRequest = IncomingMessage & { rawBody?: Buffer; cookies?: Record<string, string | undefined> };
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** The methods the gateway passes on; any other (TRACE…) answers 405 wherever it is sent. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The roster upload of identity's roster.router.ts (its own body limit). */
const ROSTER_UPLOAD_PATH = /^\/api\/district\/roster\/imports\/?$/;
/** A CASE framework package of the assessment service's standards.router.ts (its own body limit). */
const STANDARDS_UPLOAD_PATH = /^\/api\/standards\/frameworks\/?$/;
/** A QTI content package of the assessment service's qti.router.ts (its own body limit; a zip or XML, not JSON). */
const QTI_UPLOAD_PATH = /^\/api\/qti\/imports\/?$/;
/** Identity's sign-out route, as its router matches it (case-sensitive, trailing slash allowed). */
const SIGN_OUT_PATH = /^\/api\/auth\/logout\/?$/;

export const pathOf = (url: string) => url.split('?')[0]!;
/** The whole path of the request (under an Express mount, req.url has lost the mount's prefix). */
const fullUrl = (req: IncomingMessage & { originalUrl?: string }) => req.originalUrl ?? req.url ?? '';
const posts = (req: IncomingMessage, path: RegExp) => req.method === 'POST' && path.test(pathOf(fullUrl(req)));
export const isRosterUpload = (req: IncomingMessage) => posts(req, ROSTER_UPLOAD_PATH);
export const isStandardsUpload = (req: IncomingMessage) => posts(req, STANDARDS_UPLOAD_PATH);
export const isQtiUpload = (req: IncomingMessage) => posts(req, QTI_UPLOAD_PATH);

/** Who sent the request and how, believing X-Forwarded-* only from the trusted proxies (as Express's req.ip and req.protocol). */
export function clientOf(trustedProxies: string[]) {
  const trust = trustedProxies.length ? proxyaddr.compile(trustedProxies) : () => false;
  return {
    address: (req: IncomingMessage) => proxyaddr(req, trust),
    protocol(req: IncomingMessage): string {
      const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
      if (!trust(req.socket.remoteAddress ?? '', 0)) return own;
      const forwarded = req.headers['x-forwarded-proto'];
      const first = typeof forwarded === 'string' && forwarded ? forwarded.split(',')[0]!.trim() : '';
      return first || own;
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * The answer to what went wrong before a service took the call: the client's mistakes (a body too
 * large, a broken encoding…) are 4xx saying what to fix; anything else is the gateway's own 500.
 */
export function answerError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  const bodyError = bodyParserError(err);
  if (bodyError) return sendJson(res, bodyError.status, { message: bodyError.message, code: bodyError.code });
  const e = err as { status?: number; expose?: boolean };
  if (e?.status === 404) return sendJson(res, 404, { message: 'Not found', code: 'not_found' });
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose)
    return sendJson(res, e.status, { message: 'Bad request', code: 'bad_request' });
  // Upstream failures are answered by the proxy (502/503); what reaches here is the gateway's own.
  req.log?.error({ err }, 'gateway error');
  if (!res.headersSent) sendJson(res, 500, { message: 'The gateway could not complete the request', code: 'internal' });
  else res.destroy();
}

export interface ApiParts {
  serviceForPath: (path: string) => string | undefined;
  proxies: Map<string, Proxy>;
  /** Identity's proxy with the roster preview's longer timeout. */
  rosterProxy: Proxy | undefined;
  sessions: SessionVerifier | undefined;
  revoked: RevokedSessions | undefined;
  tokens: ServiceTokens;
  publicOrigin: string;
  cookieSecure: boolean;
  client: ReturnType<typeof clientOf>;
}

/** The checks of an /api call whose body (`undefined`: none was sent) is read, then its service. */
export function apiForwarder(parts: ApiParts) {
  const { serviceForPath, proxies, sessions, revoked, tokens, publicOrigin, client } = parts;
  return async (req: ApiRequest, res: ServerResponse, body: Buffer | undefined): Promise<void> => {
    const path = pathOf(req.url ?? '');
    // Before anything else runs: a deeply nested body costs the services time at every level.
    // (A roster or QTI upload is a zip, CSV or XML file, not JSON: its bytes are not brackets.)
    if (body && !isRosterUpload(req) && !isQtiUpload(req) && jsonNestingExceeds(body)) {
      const { status, code, message, fields } = tooDeepError();
      return sendJson(res, status, { message, code, fields });
    }
    const cookies = requestCookies(req);
    ensureCsrfCookie(cookies, res, parts.cookieSecure);
    const service = serviceForPath(path);
    if (!service) return sendJson(res, 404, { message: `No API route for ${req.method} ${path}`, code: 'not_found' });
    // A large roster's preview (every row validated) may take longer than other calls.
    const proxy = isRosterUpload(req) && parts.rosterProxy ? parts.rosterProxy : proxies.get(service);
    if (!proxy) return sendJson(res, 503, { message: `${service} is unavailable`, code: 'unavailable' });
    // An LMS's cross-site form post (LTI) goes on without the session and without the CSRF check.
    const crossSiteForm = isCrossSiteFormPost(req, path);
    if (crossSiteForm) allowFramingByLms(req, path, res);
    const session = sessions && !crossSiteForm ? await sessions.authenticate(cookies, res) : undefined;
    const problem = crossSiteForm
      ? undefined
      : csrfProblem(req, cookies, session, publicOrigin, () => selfOrigin(req, client.protocol));
    if (problem) return sendJson(res, 403, { message: problem, code: 'csrf' });
    // A sign-out ends the session here at once (other gateway replicas learn it at their next poll).
    if (session && req.method === 'POST' && SIGN_OUT_PATH.test(path)) revoked?.markRevoked(session.sessionId);
    applyServiceToken(req.headers, tokens, service, {
      session,
      clientAddress: client.address(req),
      requestId: req.headers['x-request-id'] as string | undefined,
    });
    req.rawBody = body;
    proxy(req, res);
  };
}

function selfOrigin(req: IncomingMessage, protocol: (req: IncomingMessage) => string): string {
  return `${protocol(req)}://${req.headers.host ?? ''}`;
}

/** Whether the fast path takes this request: an /api call with a JSON body or none, not compressed, not an upload. */
export function takesFastPath(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  if (!url.startsWith('/api/') || !METHODS.includes(req.method ?? '')) return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  if (pathOf(url) === '/api/openapi.json') return false;
  return !isRosterUpload(req) && !isStandardsUpload(req) && !isQtiUpload(req);
}

export interface FastPathParts {
  /** The middleware every request passes first (metrics, the access log), in order. */
  first: Middleware[];
  /** The headers of every answer (helmet's). */
  securityHeaders: [string, string][];
  /** Compression of reads (GET, HEAD). */
  compress: Middleware;
  bodyLimitBytes: number;
  forward: ReturnType<typeof apiForwarder>;
}

/** The fast path: what Express does for such a call, without Express. */
export function fastApi({ first, securityHeaders, compress, bodyLimitBytes, forward }: FastPathParts) {
  const noop = () => {};
  return (req: ApiRequest, res: ServerResponse): void => {
    for (const middleware of first) middleware(req, res, noop);
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    // API answers carry personal data: no browser or proxy keeps them, errors included.
    res.setHeader('Cache-Control', 'no-store');
    const go = () => {
      readBody(req, bodyLimitBytes)
        .then((body) => forward(req, res, body))
        .catch((err: unknown) => answerError(req, res, err));
    };
    if (req.method === 'GET' || req.method === 'HEAD') compress(req, res, go);
    else go();
  };
}

/**
 * The request's body, read whole within `limit` (undefined when the request has none), refused as
 * Express's raw parser refuses it. A refused body is read off before the answer goes, as the
 * parser does, so that the client, still sending, gets it.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number.isNaN(Number(length))))
    return undefined;
  try {
    return await getRawBody(req, { length, limit });
  } catch (err) {
    if (!req.complete && !req.destroyed) {
      req.resume();
      await new Promise<void>((resolve) => {
        req.once('end', resolve);
        req.once('close', resolve);
      });
    }
    throw err;
  }
}
