// What a request body may cost: JSON nesting is bounded before the text is parsed, every check of
// a parsed body is linear in its size, and body-parser's failures become client errors (4xx).
import { isUtf8 } from 'node:buffer';
import { AppError } from './errors.ts';

/** The deepest nesting of arrays and objects a JSON body may have (ours nest less than 6 deep). */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, brackets inside strings aside.
 * One pass over the bytes, stopping at the first level too deep. UTF-8 bytes can be scanned as
 * they are: no byte of a multi-byte sequence is an ASCII quote, backslash or bracket.
 */
export function jsonNestingExceeds(text: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** The 400 for a body nested deeper than MAX_JSON_DEPTH. */
export function tooDeepError(): AppError {
  return new AppError(
    'invalid',
    'too_deep',
    `Request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, the most accepted`,
    { body: `At most ${MAX_JSON_DEPTH} levels of nesting` },
  );
}

/**
 * Refuses (throws tooDeepError) a body in `charset` that nests deeper than MAX_JSON_DEPTH, and a
 * UTF-8 body whose bytes are not UTF-8: for express.json's `verify`, which runs on the raw bytes
 * before JSON.parse.
 */
export function assertJsonDepth(body: Uint8Array, charset?: string | null): void {
  let text: Uint8Array | string = body;
  // Bytes that are not UTF-8 ("Zo\xEB" from a Latin-1 client) would be stored as U+FFFD.
  if ((!charset || /^utf-?8$/i.test(charset)) && !isUtf8(body))
    throw new AppError('invalid', 'invalid_utf8', 'Request body is not valid UTF-8; send it encoded as UTF-8', {
      body: 'Not valid UTF-8',
    });
  if (charset && !/^utf-?8$/i.test(charset)) {
    try {
      text = new TextDecoder(charset).decode(body);
    } catch {
      throw new AppError(
        'unsupported_media_type',
        'unsupported_charset',
        `Charset "${charset}" is not supported; send UTF-8`,
      );
    }
  }
  if (jsonNestingExceeds(text)) throw tooDeepError();
}

/**
 * The client error that a failure of body-parser (express.json / express.raw) stands for, with a
 * message saying what to fix; undefined for anything else.
 */
export function bodyParserError(err: unknown): AppError | undefined {
  if (err instanceof AppError || !err || typeof err !== 'object') return undefined;
  const e = err as {
    type?: string;
    status?: number;
    code?: string;
    limit?: number;
    encoding?: string;
    charset?: string;
  };
  switch (e.type) {
    case 'entity.too.large':
      return new AppError(
        'too_large',
        'body_too_large',
        e.limit ? `Request body is larger than ${e.limit} bytes` : 'Request body is too large',
      );
    case 'entity.parse.failed':
      return new AppError('invalid', 'invalid_json', 'Request body is not valid JSON');
    case 'encoding.unsupported':
      return new AppError(
        'unsupported_media_type',
        'unsupported_encoding',
        `Content-Encoding "${e.encoding ?? ''}" is not supported; use gzip, deflate, br or none`,
      );
    case 'charset.unsupported':
      return new AppError(
        'unsupported_media_type',
        'unsupported_charset',
        `Charset "${e.charset ?? ''}" is not supported; send UTF-8`,
      );
    case 'request.aborted':
      return new AppError('invalid', 'request_aborted', 'The request body was not sent completely');
    case 'request.size.invalid':
      return new AppError('invalid', 'invalid_body', 'Request body length does not match its Content-Length');
  }
  // A decompression stream's error (zlib: Z_DATA_ERROR, Z_BUF_ERROR…; brotli: ERR_…), to which
  // body-parser gives status 400 and no type.
  if (e.status === 400 && e.type === undefined) {
    return new AppError(
      'invalid',
      'invalid_encoding',
      'Request body could not be decoded: it does not match its Content-Encoding',
    );
  }
  return undefined;
}

/**
 * The path of the first string (or key) holding a NUL character, which PostgreSQL cannot store in
 * text. Iterative (deep values cannot exhaust the stack) and linear in the value's size: each
 * entry links to its parent, and the path is built only for the value found.
 */
export function findNulCharacter(value: unknown): (string | number)[] | undefined {
  interface Entry {
    value: unknown;
    key: string | number | undefined;
    parent: Entry | undefined;
  }
  const pathOf = (entry: Entry | undefined): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let e = entry; e && e.key !== undefined; e = e.parent) path.push(e.key);
    return path.reverse();
  };
  const stack: Entry[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length) {
    const entry = stack.pop()!;
    const v = entry.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(entry);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: entry });
    } else if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      for (const k of keys) if (k.includes('\u0000')) return pathOf(entry);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: (v as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: entry });
      }
    }
  }
  return undefined;
}

/**
 * A request's body as the bytes sent (a file upload: a zip package, a CSV), refusing more than
 * `limitBytes` (413) before reading it when the length is declared, else as it arrives. `what`
 * names it in the messages ("The roster"); `expected` is the media the route takes, said when a
 * JSON body (already parsed by the service's JSON parser) was sent instead (415).
 */
export async function readRawBody(
  req: import('node:http').IncomingMessage & { body?: unknown },
  { limitBytes, what, expected }: { limitBytes: number; what: string; expected: string },
): Promise<Buffer> {
  const body = req.body;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body) && Object.keys(body).length)
    throw new AppError('unsupported_media_type', 'unsupported_media_type', `Send ${expected}, not JSON`);
  if (Buffer.isBuffer(body)) return body;
  const tooLarge = () => new AppError('too_large', 'body_too_large', `${what} is larger than ${limitBytes} bytes`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    req.resume();
    throw tooLarge();
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) {
      req.resume();
      throw tooLarge();
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}
