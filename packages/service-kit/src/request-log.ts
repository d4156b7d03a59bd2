// One access-log line per HTTP request, small enough to write for every call: request id,
// method, path (never the query string, which can carry codes and tokens), status and time.
// Headers, cookies and bodies are not logged at all.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { Logger } from './logger.ts';

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
const START = Symbol('requestStart');

export function requestLogger(options: RequestLogOptions): HttpLogger {
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS;
  return pinoHttp({
    logger: options.logger,
    genReqId: (req, res) => {
      const id = options.requestId(req);
      res.setHeader('x-request-id', id);
      (res as ServerResponse & { [START]?: number })[START] = performance.now();
      return id;
    },
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({
        id: req.id,
        method: req.method,
        path: (req.url ?? '').split('?')[0],
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    autoLogging: options.ignore ? { ignore: options.ignore } : true,
    customLogLevel: (_req, res, err) => {
      const asked = res.getHeader(LOG_LEVEL_HEADER);
      if (!err && (asked === 'info' || asked === 'debug')) return asked;
      // 503: the service or its database is unavailable for now, a condition to watch rather than a bug.
      if (!err && res.statusCode === 503) return 'warn';
      if (err || res.statusCode >= 500) return 'error';
      // An event stream lasts as long as its page is open, and the page leaving ends it: neither is slow nor a failure.
      if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) return options.successLevel;
      const started = (res as ServerResponse & { [START]?: number })[START];
      if (started !== undefined && performance.now() - started >= slowMs) return 'warn';
      return res.statusCode >= 400 ? 'info' : options.successLevel;
    },
  });
}
