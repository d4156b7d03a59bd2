// OpenTelemetry tracing: exported over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
// The SDK is loaded only then: imported unconditionally it costs every process ~50 MB of memory.
import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: Promise<NodeSDK> | undefined;

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
      instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation(), new PgInstrumentation()],
    });
    started.start();
    return started;
  })();
  await sdk;
}

export async function stopTelemetry(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await (await running?.catch(() => undefined))?.shutdown().catch(() => {});
}
