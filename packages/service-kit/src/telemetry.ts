// OpenTelemetry tracing: exported over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
// The SDK is loaded only then: imported unconditionally it costs every process ~50 MB of memory.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { TextMapPropagator } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { loggedPath } from './request-log.ts';

let sdk: Promise<NodeSDK> | undefined;

const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
const INSTRUMENTED_MODULES = ['http', 'https', 'express', 'pg'];
/**
 * Query parameters whose values a span never holds: the links mailed to users (`token`), sign-in
 * callbacks (`code`, `state`), the all-in-one's local mailbox page (`key`), and the
 * instrumentation's own defaults (signed URLs).
 */
const SECRET_QUERY_PARAMS = ['token', 'code', 'state', 'key', 'sig', 'Signature', 'AWSAccessKeyId', 'X-Goog-Signature'];

/**
 * `edge`: the process takes requests from the internet (the gateway, the all-in-one). It starts a
 * trace of its own for each, rather than continuing one a client names in `traceparent`: a client
 * must not choose trace ids (to mix its requests into others' traces) or, under a parent-based
 * sampler, which requests are sampled. It still passes its context on to the services it calls.
 */
export async function startTelemetry(
  serviceName: string,
  endpoint: string | undefined,
  { edge = false }: { edge?: boolean } = {},
): Promise<void> {
  if (!endpoint) return;
  sdk ??= (async () => {
    const [
      { W3CTraceContextPropagator },
      { NodeSDK },
      { OTLPTraceExporter },
      { HttpInstrumentation },
      { ExpressInstrumentation },
      { PgInstrumentation },
      { resourceFromAttributes },
      { ATTR_SERVICE_NAME },
    ] = await Promise.all([
      import('@opentelemetry/core'),
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-express'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/semantic-conventions'),
    ]);
    const w3c = new W3CTraceContextPropagator();
    const started = new NodeSDK({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
      ...(edge
        ? {
            textMapPropagator: {
              inject: (context, carrier, setter) => w3c.inject(context, carrier, setter),
              extract: (context) => context,
              fields: () => w3c.fields(),
            } satisfies TextMapPropagator,
          }
        : {}),
      traceExporter: new OTLPTraceExporter({ url: new URL('/v1/traces', endpoint).toString() }),
      instrumentations: [
        new HttpInstrumentation({
          // Probes and scrapes are not traffic; calls made outside any request (polls) start no trace.
          ignoreIncomingRequestHook: (req) => PROBE_PATHS.has((req.url ?? '').split('?')[0] ?? ''),
          requireParentforOutgoingSpans: true,
          redactedQueryParams: SECRET_QUERY_PARAMS,
          redactedQueryParamsServer: SECRET_QUERY_PARAMS,
          // A secret in a path (an invitation's token) is masked as in the request log.
          requestHook: (span, request) => {
            if (isClientRequest(request)) {
              const masked = loggedPath(request.path);
              if (masked !== request.path.split('?')[0])
                span.setAttribute('url.full', `${request.protocol}//${String(request.getHeader('host'))}${masked}`);
            } else {
              span.setAttribute('url.path', loggedPath(request.url ?? ''));
            }
          },
        }),
        new ExpressInstrumentation(),
        // The relay's and timers' queries (every second, outside any request) start no trace.
        new PgInstrumentation({ requireParentSpan: true }),
      ],
    });
    started.start();
    // The instrumentations patch a module when it is next `require`d. The process's modules are
    // ES modules loaded before this runs (no loader hook: the SDK stays unloaded without an
    // endpoint), so require the instrumented CommonJS modules once now: they are the same
    // instances the app imported, and patching their exports and prototypes reaches every user.
    const require = createRequire(import.meta.url);
    for (const name of INSTRUMENTED_MODULES) {
      try {
        require(name);
      } catch {
        // not installed in this process: nothing to patch
      }
    }
    // `import { request } from 'node:http'` binds the function as it was at import: point the
    // built-in modules' ES exports at the patched ones.
    syncBuiltinESMExports();
    return started;
  })();
  await sdk;
}

export async function stopTelemetry(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await (await running?.catch(() => undefined))?.shutdown().catch(() => {});
}

const isClientRequest = (request: ClientRequest | IncomingMessage): request is ClientRequest =>
  typeof (request as Partial<ClientRequest>).path === 'string';
