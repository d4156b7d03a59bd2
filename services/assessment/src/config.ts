// The assessment service's own environment variables (merged with service-kit's base ones): none
// yet; limits are product constants (spec §9) in src/domain.
import { z } from 'zod';

export const assessmentConfigSchema = z.object({});

export type AssessmentConfig = z.infer<typeof assessmentConfigSchema>;
