// CSRF: a state-changing /api request needs an Origin (when sent) equal to ours and the header
// X-CSRF-Token equal to the session's token (signed in) or to the cp_csrf cookie (signed out,
// double submit). GET/HEAD/OPTIONS never change state.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionCookieNames } from '@checkpoint/service-kit';
import type { SessionInfo } from './auth.ts';
import { setCookie } from './cookies.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

export function isSafeMethod(method: string): boolean {
  return SAFE.has(method.toUpperCase());
}

/**
 * The posts a platform's page makes across sites by design (LTI 1.3: the OIDC login initiation
 * and the launch, an HTML form posted from the LMS's origin). They prove themselves (a single-use
 * state and the platform's signed id_token) and the gateway passes them on without the browser's
 * session, so no cookie of ours gives them any authority; every other post keeps the rule below.
 */
const CROSS_SITE_FORM_POSTS = /^\/api\/lti\/(?:login|launch)\/?$/;

export function isCrossSiteFormPost(req: IncomingMessage, path: string): boolean {
  return req.method === 'POST' && CROSS_SITE_FORM_POSTS.test(path);
}

const LTI_LAUNCH = /^\/api\/lti\/launch\/?$/;

/**
 * The LTI launch's answer is shown inside the LMS's page (an iframe of the platform's origin,
 * which the tool does not know beforehand: Canvas's cloud issuer serves every school's own host),
 * docs/adr/014-lti.md: any https page may frame that one answer. It carries no session of ours and
 * offers only a link opening Checkpoint in a new window; every other answer stays unframable.
 */
export function allowFramingByLms(req: IncomingMessage, path: string, res: ServerResponse): void {
  if (req.method !== 'POST' || !LTI_LAUNCH.test(path)) return;
  res.removeHeader('X-Frame-Options');
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp === 'string')
    res.setHeader('Content-Security-Policy', csp.replace("frame-ancestors 'none'", "frame-ancestors 'self' https:"));
}

/**
 * Returns a reason when the request must be refused, undefined when it may go on. `selfOrigin` is
 * the origin the request was sent to (its scheme as the trusted proxies say, and its Host).
 */
export function csrfProblem(
  req: IncomingMessage,
  cookies: Record<string, string | undefined>,
  session: SessionInfo | undefined,
  publicOrigin: string,
  selfOrigin: () => string,
): string | undefined {
  if (isSafeMethod(req.method ?? '')) return undefined;
  const origin = req.headers.origin;
  if (origin && origin !== publicOrigin && origin !== selfOrigin()) return 'Cross-site request refused';
  if (req.headers['sec-fetch-site'] === 'cross-site') return 'Cross-site request refused';
  const sent = req.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !sent) return 'Missing CSRF token';
  const expected = session ? session.csrf : cookies[sessionCookieNames(false).csrf];
  if (!expected || !equal(sent, expected)) return 'Invalid CSRF token';
  return undefined;
}

/** Gives the browser a CSRF cookie to double-submit before it has a session. */
export function ensureCsrfCookie(
  cookies: Record<string, string | undefined>,
  res: ServerResponse,
  secure: boolean,
): void {
  const name = sessionCookieNames(secure).csrf;
  if (cookies[name]) return;
  setCookie(res, name, randomBytes(32).toString('base64url'), { httpOnly: false, sameSite: 'lax', secure, path: '/' });
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
