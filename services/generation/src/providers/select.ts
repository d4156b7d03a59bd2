// Which provider writes: GENERATION_PROVIDER=auto takes openai when a key is set, else offline.
import { ConfigError } from '@checkpoint/service-kit';
import type { GenerationConfig } from '../config.ts';
import { offlineProvider } from './offline.provider.ts';
import { openAiProvider } from './openai.provider.ts';
import type { Provider } from './provider.ts';

export function selectProvider(config: GenerationConfig): Provider {
  const wantOpenAi =
    config.GENERATION_PROVIDER === 'openai' || (config.GENERATION_PROVIDER === 'auto' && !!config.OPENAI_API_KEY);
  if (!wantOpenAi) return offlineProvider();
  if (!config.OPENAI_API_KEY)
    throw new ConfigError(['OPENAI_API_KEY: required when GENERATION_PROVIDER=openai (got unset)']);
  return openAiProvider({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
    timeoutMs: config.OPENAI_TIMEOUT_MS,
    maxRetries: config.OPENAI_MAX_RETRIES,
    retryBaseMs: config.OPENAI_RETRY_BASE_MS,
  });
}
