// The generation service's own environment variables (merged with service-kit's base ones).
import { envBoolean } from '@checkpoint/service-kit';
import { z } from 'zod';

const int = (min: number, max: number, def: number, doc: string) =>
  z.coerce.number().int().min(min).max(max).default(def).describe(doc);

export const generationConfigSchema = z.object({
  GENERATION_PROVIDER: z
    .enum(['auto', 'openai', 'offline'])
    .default('auto')
    .describe('Who writes questions: auto = openai when OPENAI_API_KEY is set, else offline.'),
  OPENAI_API_KEY: z.string().min(1).optional().describe('OpenAI (or compatible) API key. Secret.'),
  OPENAI_BASE_URL: z.url().optional().describe('Base URL of an OpenAI-compatible API (Azure OpenAI, a local server).'),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini').describe('Model (or Azure deployment) name.'),
  OPENAI_TIMEOUT_MS: int(1_000, 600_000, 60_000, 'Timeout of one model call.'),
  OPENAI_MAX_RETRIES: int(
    0,
    10,
    3,
    'Retries of one model call after a 429 rate limit or a 5xx, with exponential backoff.',
  ),
  OPENAI_RETRY_BASE_MS: int(1, 60_000, 500, 'First backoff delay; doubles on each retry.'),
  GENERATION_MAX_ATTEMPTS: int(1, 10, 3, 'Attempts of one generation job before it fails with GenerationFailed.'),
  GENERATION_CONCURRENCY: int(1, 32, 2, 'Generation jobs run at once by one service instance.'),
  GENERATION_POLL_MS: int(
    50,
    60_000,
    1_000,
    'How often the worker looks for queued jobs (it is also woken by new jobs).',
  ),
  GENERATION_RETRY_DELAY_MS: int(0, 600_000, 5_000, 'Delay before a failed attempt runs again (doubles per attempt).'),
  GENERATION_STALE_AFTER_MS: int(
    10_000,
    3_600_000,
    300_000,
    'A running job not finished after this long is claimed again (crashed worker).',
  ),
  GENERATION_WORKER: envBoolean(true).describe('Run the job worker in this process.'),
  RATE_LIMIT_GENERATION_PER_MINUTE: int(
    1,
    10_000,
    10,
    'Generation requests (jobs, retries, new practice or recommendations) per teacher per minute; then 429 or the job waits.',
  ),
});

export type GenerationConfig = z.infer<typeof generationConfigSchema>;
