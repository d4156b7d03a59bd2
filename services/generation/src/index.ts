export { generationService } from './service.ts';
export { generationConfigSchema, type GenerationConfig } from './config.ts';
