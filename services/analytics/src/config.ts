// The analytics service's own environment variables (merged with service-kit's base ones).
import { mailConfigSchema } from '@checkpoint/mail';
import { z } from 'zod';

export const analyticsConfigSchema = z.object({
  ANALYTICS_CONSUMER_GROUP: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'lower-case letters, digits, dot, dash or underscore')
    .default('analytics')
    .describe(
      'Kafka consumer group of the read models. A new group on an empty schema rebuilds every read model from the start of the topics.',
    ),
  LIVE_HEARTBEAT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(25_000)
    .default(15_000)
    .describe('Interval of the keep-alive comment on live result streams (below the gateway’s 30 s idle timeout).'),
  LIVE_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .min(10_000)
    .max(3_600_000)
    .default(600_000)
    .describe(
      'A live result stream ends after this long; the browser reconnects through the gateway, which checks the session again.',
    ),
  LIVE_MAX_STREAMS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(2_000)
    .describe('Live result streams one process keeps open at once; more answer 503.'),
  LIVE_MAX_STREAMS_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(8)
    .describe('Live result streams one user may hold open in one process (tabs); more answer 429.'),
  NOTIFICATION_DIGEST_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_440)
    .default(60)
    .describe(
      'Period of the notification digest: each user gets at most one mail per period with what their Settings switches ask for (new submissions, students who joined, new assessments, reminders).',
    ),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:8080')
    .transform((v) => v.replace(/\/+$/, ''))
    .describe('Public origin of the app (the gateway): the links in notification mails.'),
  // SMTP_URL and MAIL_FROM (packages/mail): the digest's mail goes out through them.
  ...mailConfigSchema.shape,
});

export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;
