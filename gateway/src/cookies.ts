// The gateway's cookies on a plain Node answer, as Express's res.cookie and res.clearCookie write
// them (Max-Age in seconds with the matching Expires, path `/` unless given), so that the /api fast
// path (api.ts), which does not go through Express, sets the same Set-Cookie lines as the rest.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse, serialize, type SerializeOptions } from 'cookie';

export interface CookieOptions {
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'lax' | 'strict' | 'none';
  path?: string;
  /** Milliseconds, as Express takes it. */
  maxAge?: number;
}

/** The request's cookies (first value of each name), parsed once per request. */
export function requestCookies(req: IncomingMessage & { cookies?: Record<string, string | undefined> }) {
  return (req.cookies ??= req.headers.cookie ? parse(req.headers.cookie) : {});
}

export function setCookie(res: ServerResponse, name: string, value: string, options: CookieOptions): void {
  const { maxAge, ...rest } = options;
  const serialized: SerializeOptions = { path: '/', ...rest };
  if (maxAge !== undefined) {
    serialized.expires = new Date(Date.now() + maxAge);
    serialized.maxAge = Math.floor(maxAge / 1000);
  }
  res.appendHeader('Set-Cookie', serialize(name, value, serialized));
}

export function clearCookie(res: ServerResponse, name: string, options: Omit<CookieOptions, 'maxAge'>): void {
  res.appendHeader('Set-Cookie', serialize(name, '', { path: '/', ...options, expires: new Date(1) }));
}
