// The assessment service's own environment variables (merged with service-kit's base ones);
// product limits (questions per assessment, score thresholds) are constants in src/domain.
import {
  envBoolean,
  envBytes,
  QTI_PACKAGE_DEFAULT_BYTES,
  STANDARDS_PACKAGE_DEFAULT_BYTES,
} from '@checkpoint/service-kit';
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
  STANDARDS_PACKAGE_LIMIT_BYTES: envBytes(STANDARDS_PACKAGE_DEFAULT_BYTES, 209_715_200).describe(
    "Largest CASE framework package imported (body of POST /api/standards/frameworks, a provider's document, or the CLI's file); then 413. Keep the gateway's STANDARDS_UPLOAD_LIMIT_BYTES equal.",
  ),
  QTI_PACKAGE_LIMIT_BYTES: envBytes(QTI_PACKAGE_DEFAULT_BYTES, 209_715_200).describe(
    "Largest QTI content package imported (body of POST /api/qti/imports); then 413. Keep the gateway's QTI_UPLOAD_LIMIT_BYTES equal.",
  ),
  STANDARDS_FETCH_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(300_000)
    .default(30_000)
    .describe("How long fetching a CASE provider's package may take, redirects included"),
  ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(30_000)
    .describe(
      'How often attempts of assessments past their close time are submitted for their students (what they saved before it)',
    ),
  STANDARDS_FETCH_ALLOW_LOOPBACK: envBoolean(false).describe(
    'Allow CASE provider URLs on this machine (http://127.0.0.1…): development and tests only; never in production',
  ),
});

export type AssessmentConfig = z.infer<typeof assessmentConfigSchema>;
