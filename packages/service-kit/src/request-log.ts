// One access-log line per HTTP request, small enough to write for every call: request id,
// method, path (never the query string, which can carry codes and tokens), status and time.
// Headers, cookies and bodies are not logged at all.
//
// Written here rather than with pino-http, whose per-request child logger, listener bookkeeping
// and option handling were a measurable part of every call's CPU (bench/README.md, "Cost per
// answer"); the line is the one pino-http wrote: `req`, `res`, `responseTime`, `request completed`
// (`request errored` with `err` for a 5xx). `req.log`, a child logger bound to the request, is
// made only when something logs through it.
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from './logger.ts';

declare module 'http' {
  interface IncomingMessage {
    /** A logger whose lines carry this request's id, method and path (set by requestLogger). */
    log: Logger;
  }
}

export interface RequestLogOptions {
  logger: Logger;
  /** The request id: a trusted incoming one (services) or a fresh one (the gateway). */
  requestId: (req: IncomingMessage) => string;
  /**
   * Level of a line for a request that succeeded: 'info' at the edge, where the access log lives;
   * 'debug' in the services behind it, which still log 4xx at info, 5xx at error and slow calls
   * at warn.
   */
  successLevel: 'info' | 'debug';
  /** Requests not logged at all (health probes, static files). */
  ignore?: (req: IncomingMessage) => boolean;
  slowMs?: number;
}

const DEFAULT_SLOW_MS = 1_000;

/**
 * Set (to `info`) on an answer that is a 5xx by contract but a client's condition, not a failure
 * (e.g. a sign-in method that is not configured, asked for by anyone): logged at info, in the
 * service and in the gateway that passes it on, so that nobody can flood the error log with it.
 * Set to `debug` on an answer that is slow on purpose (a request held until something happens).
 */
export const LOG_LEVEL_HEADER = 'x-checkpoint-log-level';

type Level = 'debug' | 'info' | 'warn' | 'error';

interface RequestLog {
  logger: Logger;
  id: string;
  method: string | undefined;
  path: string;
  child?: Logger;
}
const STATE = Symbol('requestLog');
type LoggedRequest = IncomingMessage & { [STATE]?: RequestLog; id?: string };

/** The request's fields on every line logged through req.log and on its access-log line. */
const reqFields = (s: RequestLog) => ({ id: s.id, method: s.method, path: s.path });

/**
 * Routes that carry a bearer secret in their path, with the secret's place: a district invitation's
 * token (`GET /api/auth/invitations/{token}`) opens an account in the district to whoever holds it.
 */
const SECRET_IN_PATH = /^(\/api\/auth\/invitations\/)(?!accept\/?$)[^/]+/i;

/** Whether the answer is an event stream (the live dashboard): it lasts as long as its page is open. */
export const isEventStream = (res: ServerResponse) =>
  String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');

/** A request's path as logged: never the query string (codes, tokens), and no secret of the path. */
export const loggedPath = (url: string) => url.split('?')[0]!.replace(SECRET_IN_PATH, '$1{token}');

/**
 * `req.log` as a getter on the prototype of the requests (Express gives each app one of its own):
 * the child logger is made on first use. A plain Node request gets an own property instead, so
 * that http.IncomingMessage itself is never changed.
 */
const withGetter = new WeakSet<object>();
const logDescriptor: PropertyDescriptor = {
  configurable: true,
  get(this: LoggedRequest) {
    const s = this[STATE];
    if (!s) return undefined;
    return (s.child ??= s.logger.child({ req: reqFields(s) }));
  },
  set(this: LoggedRequest, value: Logger) {
    Object.defineProperty(this, 'log', { value, writable: true, configurable: true, enumerable: true });
  },
};
/**
 * The requests of the servers `listen` starts (service-kit's lifecycle.ts): `req.log` is a getter of
 * their prototype from the start, so that a request no framework re-prototypes (the gateway's /api
 * fast path) does not get a property of its own on every call.
 */
export class RequestWithLog extends IncomingMessage {}
Object.defineProperty(RequestWithLog.prototype, 'log', logDescriptor);
withGetter.add(RequestWithLog.prototype);

function installLog(req: LoggedRequest): void {
  const proto = Object.getPrototypeOf(req) as { constructor?: { prototype?: unknown } } | null;
  if (proto && withGetter.has(proto)) return;
  // A class's own prototype (http.IncomingMessage's), or one where `log` is taken: this request only.
  if (!proto || proto.constructor?.prototype === proto || Object.prototype.hasOwnProperty.call(proto, 'log')) {
    Object.defineProperty(req, 'log', logDescriptor);
    return;
  }
  Object.defineProperty(proto, 'log', logDescriptor);
  withGetter.add(proto);
}

export function requestLogger(
  options: RequestLogOptions,
): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS;
  const { logger } = options;

  function levelOf(res: ServerResponse, started: number, err: unknown): Level {
    const asked = res.getHeader(LOG_LEVEL_HEADER);
    if (!err && (asked === 'info' || asked === 'debug')) return asked;
    // 503: the service or its database is unavailable for now, a condition to watch rather than a bug.
    if (!err && res.statusCode === 503) return 'warn';
    if (err || res.statusCode >= 500) return 'error';
    // An event stream lasts as long as its page is open, and the page leaving ends it: neither is slow nor a failure.
    if (isEventStream(res)) return options.successLevel;
    if (performance.now() - started >= slowMs) return 'warn';
    return res.statusCode >= 400 ? 'info' : options.successLevel;
  }

  return (request, res, next) => {
    const req = request as LoggedRequest;
    const id = options.requestId(req);
    res.setHeader('x-request-id', id);
    req.id = id;
    const state: RequestLog = { logger, id, method: req.method, path: loggedPath(req.url ?? '') };
    req[STATE] = state;
    installLog(req);
    if (!options.ignore?.(req)) {
      const started = performance.now();
      const done = (err?: unknown) => {
        res.removeListener('close', done);
        res.removeListener('finish', done);
        const level = levelOf(res, started, err);
        // Checked before the line's object is built: a service's successes at debug cost nothing.
        if (!logger.isLevelEnabled(level)) return;
        const line: Record<string, unknown> = {
          req: reqFields(state),
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        };
        if (err || res.statusCode >= 500) {
          line.err = err instanceof Error ? err : new Error(`failed with status code ${res.statusCode}`);
          logger[level](line, 'request errored');
        } else {
          logger[level](line, 'request completed');
        }
      };
      res.on('close', done);
      res.on('finish', done);
    }
    next();
  };
}
