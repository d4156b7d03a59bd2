// OpenTelemetry tracing: exported over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
// The SDK is loaded only then: imported unconditionally it costs every process ~50 MB of memory.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: Promise<NodeSDK> | undefined;

const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
const INSTRUMENTED_MODULES = ['http', 'https', 'express', 'pg'];

export async function startTelemetry(serviceName: string, endpoint: string | undefined): Promise<void> {
  if (!endpoint) return;
  sdk ??= (async () => {
    const [
      { NodeSDK },
      { OTLPTraceExporter },
      { HttpInstrumentation },
      { ExpressInstrumentation },
      { PgInstrumentation },
      { resourceFromAttributes },
      { ATTR_SERVICE_NAME },
    ] = await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-express'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/semantic-conventions'),
    ]);
    const started = new NodeSDK({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
      traceExporter: new OTLPTraceExporter({ url: new URL('/v1/traces', endpoint).toString() }),
      instrumentations: [
        new HttpInstrumentation({
          // Probes and scrapes are not traffic; calls made outside any request (polls) start no trace.
          ignoreIncomingRequestHook: (req) => PROBE_PATHS.has((req.url ?? '').split('?')[0] ?? ''),
          requireParentforOutgoingSpans: true,
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
