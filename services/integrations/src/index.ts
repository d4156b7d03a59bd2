export { integrationsService } from './service.ts';
export { integrationsConfigSchema, type IntegrationsConfig } from './config.ts';
