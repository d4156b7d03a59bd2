export { analyticsService } from './service.ts';
export { analyticsConfigSchema, type AnalyticsConfig } from './config.ts';
