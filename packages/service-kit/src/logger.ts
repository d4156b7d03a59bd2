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
    // Lines written inside a span carry its ids (OpenTelemetry's log correlation field names), so
    // that a log line leads to its trace. Without the SDK there is never an active span.
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId, traceFlags } = span.spanContext();
      return { trace_id: traceId, span_id: spanId, trace_flags: `0${traceFlags.toString(16)}`.slice(-2) };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
