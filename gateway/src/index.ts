export { createGateway, stopGateway, upstreamsFrom } from './app.ts';
export { gatewayConfigSchema, gatewayConfigSchemaFor, type GatewayConfig } from './config.ts';
export { serviceForPath, SERVICES, type ServiceName } from './routes.ts';
