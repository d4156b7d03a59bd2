export { assessmentService } from './service.ts';
export { assessmentConfigSchema, type AssessmentConfig } from './config.ts';
