// CloudEvents Kafka binding (binary mode): metadata in headers, protobuf payload as the value.
import { isSpanContextValid, trace } from '@opentelemetry/api';

export const CONTENT_TYPE = 'application/protobuf';

/** What a consumer knows about an event besides its payload. */
export interface EventEnvelope {
  id: string;
  type: string;
  source: string;
  time: string;
  tenantId: string;
  traceparent?: string;
  topic: string;
  key: string;
}

/** Builds the CloudEvents headers of a new event; traceparent comes from the active span, if any. */
export function buildHeaders(event: {
  id: string;
  type: string;
  source: string;
  time: Date;
  tenantId: string;
}): Record<string, string> {
  const headers: Record<string, string> = {
    ce_specversion: '1.0',
    ce_id: event.id,
    ce_type: event.type,
    ce_source: event.source,
    ce_time: event.time.toISOString(),
    ce_tenantid: event.tenantId,
    'content-type': CONTENT_TYPE,
  };
  const span = trace.getActiveSpan()?.spanContext();
  if (span && isSpanContextValid(span)) {
    headers.traceparent = `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  }
  return headers;
}

/** Reads the envelope of a received message; throws when a required header is missing. */
export function readEnvelope(message: { topic: string; key: string; headers: Record<string, string> }): EventEnvelope {
  const h = message.headers;
  const id = h.ce_id;
  const type = h.ce_type;
  if (!id || !type) throw new Error(`message on ${message.topic} has no ce_id/ce_type headers`);
  return {
    id,
    type,
    source: h.ce_source ?? '',
    time: h.ce_time ?? '',
    tenantId: h.ce_tenantid ?? '',
    ...(h.traceparent ? { traceparent: h.traceparent } : {}),
    topic: message.topic,
    key: message.key,
  };
}
