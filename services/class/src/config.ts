// The class service's own environment variables (merged with service-kit's base ones).
import { z } from 'zod';

export const classConfigSchema = z.object({
  RATE_LIMIT_JOIN_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(10)
    .describe(
      'Join attempts (by code or from the browse list) allowed per student per minute; then 429 with Retry-After.',
    ),
  RATE_LIMIT_JOIN_LOOKUP_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(30)
    .describe(
      'Signed-out join-code checks (GET /api/classes/join-code) allowed per client address per minute; then 429 with Retry-After.',
    ),
});

export type ClassConfig = z.infer<typeof classConfigSchema>;
