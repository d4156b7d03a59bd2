// Trace context across the bus, after the OpenTelemetry messaging conventions: the outbox row
// keeps the `traceparent` of the request that wrote it (envelope.ts); the Kafka producer starts a
// `send` span as its child and puts its own context in the message's `traceparent` header; the
// consumer starts a `process` span as the child of that. Without an SDK (OTEL_EXPORTER_OTLP_ENDPOINT
// unset) no span records and the headers pass through unchanged.
import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { errorText, type BusMessage } from './bus.ts';

const tracer = trace.getTracer('@checkpoint/events');
/**
 * Events carry W3C trace context (`traceparent`), whatever the process's own propagator: the
 * gateway and the all-in-one do not continue a trace an internet client names (telemetry.ts), but
 * do continue the one of an event they wrote themselves.
 */
const w3c = new W3CTraceContextPropagator();

const getter = {
  keys: (carrier: Record<string, string>) => Object.keys(carrier),
  get: (carrier: Record<string, string>, key: string) => carrier[key],
};
const setter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};

/** The context a message's headers carry (the root context when they carry none). */
export function contextOf(headers: Record<string, string>): Context {
  return w3c.extract(ROOT_CONTEXT, headers, getter);
}

function messageAttributes(system: string, message: BusMessage, topic: string): Attributes {
  return {
    'messaging.system': system,
    'messaging.destination.name': topic,
    'messaging.kafka.message.key': message.key,
    ...(message.headers.ce_id ? { 'messaging.message.id': message.headers.ce_id } : {}),
    ...(message.headers.ce_type ? { 'cloudevents.event_type': message.headers.ce_type } : {}),
  };
}

/**
 * Starts the `send` span of one message, child of the context its headers carry, and returns the
 * headers to put on the wire: the same with `traceparent` (and `tracestate`) naming the new span.
 */
export function startSendSpan(
  system: string,
  message: BusMessage,
  topic: string,
): { span: Span; headers: Record<string, string> } {
  const parent = contextOf(message.headers);
  const span = tracer.startSpan(
    `send ${topic}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: { ...messageAttributes(system, message, topic), 'messaging.operation.type': 'send' },
    },
    parent,
  );
  if (!span.isRecording()) return { span, headers: message.headers };
  const headers = { ...message.headers };
  w3c.inject(trace.setSpan(parent, span), headers, setter);
  return { span, headers };
}

/**
 * Starts the `process` span of one received message as the child of the producer's span (the
 * context its headers carry), and returns the context to run the handler in.
 */
export function startProcessSpan(
  system: string,
  message: BusMessage,
  topic: string,
  extra: Attributes,
): { span: Span; context: Context } {
  const parent = contextOf(message.headers);
  const span = tracer.startSpan(
    `process ${topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: { ...messageAttributes(system, message, topic), 'messaging.operation.type': 'process', ...extra },
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends spans with the outcome of the work they covered. */
export function endSpans(spans: Span[], error?: unknown): void {
  for (const span of spans) {
    if (error !== undefined) {
      span.recordException(error instanceof Error ? error : new Error(errorText(error)));
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorText(error) });
    }
    span.end();
  }
}

/** Runs `fn` with `ctx` as the active context (so that its database spans and events continue the trace). */
export function runInContext<T>(ctx: Context, fn: () => Promise<T>): Promise<T> {
  return context.with(ctx, fn);
}
