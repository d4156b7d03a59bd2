import {
  closeServer,
  SHUTDOWN_GRACE_MS,
  createLogger,
  exitOnStartupError,
  listen,
  onShutdownSignal,
  parseConfig,
  startMetricsServer,
  startTelemetry,
  stopTelemetry,
} from '@checkpoint/service-kit';
import { createGateway, stopGateway } from './app.ts';
import { gatewayConfigSchema } from './config.ts';

try {
  const config = parseConfig(gatewayConfigSchema);
  await startTelemetry('gateway', config.OTEL_EXPORTER_OTLP_ENDPOINT, { edge: true });
  const logger = createLogger('gateway', config.LOG_LEVEL);
  // Prometheus metrics on METRICS_PORT (default 9464), never on the gateway's own port.
  const metrics = await startMetricsServer({ logger });
  const gateway = createGateway(config, logger);
  const { server, url } = await listen(gateway, config.PORT, config.HOST);
  logger.info({ url }, 'gateway listening');
  onShutdownSignal(
    async () => {
      stopGateway(gateway);
      await closeServer(server, config.SHUTDOWN_TIMEOUT_MS, { graceMs: SHUTDOWN_GRACE_MS });
      await metrics?.stop();
      // The last spans (the roots of the last requests' traces) are exported before the process ends.
      await stopTelemetry();
    },
    config.SHUTDOWN_TIMEOUT_MS,
    (m) => logger.info(m),
  );
} catch (err) {
  exitOnStartupError('gateway', err);
}
