// The assessment service's own environment variables (merged with service-kit's base ones);
// product limits (questions per assessment, score thresholds) are constants in src/domain.
import { z } from 'zod';

const perMinute = (def: number, doc: string) => z.coerce.number().int().min(1).max(100_000).default(def).describe(doc);

export const assessmentConfigSchema = z.object({
  RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: perMinute(
    10,
    'Assessments (each starts a generation job) a teacher may create per minute; then 429 with Retry-After.',
  ),
  RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: perMinute(
    60,
    "Assessments created per minute from one client address (a school's teachers may share one); then 429.",
  ),
});

export type AssessmentConfig = z.infer<typeof assessmentConfigSchema>;
