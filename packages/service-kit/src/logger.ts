import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * pino logger that carries the active trace id and never prints secrets. Writes to stdout, or to
 * `destination` (tests read the lines a call logs).
 */
export function createLogger(
  name: string,
  level: string = 'info',
  destination?: { write(line: string): void },
): Logger {
  const options: LoggerOptions = {
    name,
    level,
    redact: {
      paths: [
        'password',
        '*.password',
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        'refreshToken',
        '*.refreshToken',
      ],
      censor: '[redacted]',
    },
    mixin() {
      const span = trace.getActiveSpan();
      return span ? { traceId: span.spanContext().traceId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
