export { classService } from './service.ts';
export { classConfigSchema, type ClassConfig } from './config.ts';
