import {
  closeServer,
  createLogger,
  exitOnStartupError,
  listen,
  onShutdownSignal,
  parseConfig,
  startTelemetry,
} from '@checkpoint/service-kit';
import { createGateway, stopGateway } from './app.ts';
import { gatewayConfigSchema } from './config.ts';

try {
  const config = parseConfig(gatewayConfigSchema);
  await startTelemetry('gateway', config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const gateway = createGateway(config, logger);
  const { server, url } = await listen(gateway, config.PORT, config.HOST);
  logger.info({ url }, 'gateway listening');
  onShutdownSignal(
    () => {
      stopGateway(gateway);
      return closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
    },
    config.SHUTDOWN_TIMEOUT_MS,
    (m) => logger.info(m),
  );
} catch (err) {
  exitOnStartupError('gateway', err);
}
