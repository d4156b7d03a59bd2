// Process entry of the generation service when it runs on its own (Kafka, its own DATABASE_URL).
import { runServiceMain } from '@checkpoint/service-kit';
import { generationService } from './service.ts';

await runServiceMain(generationService);
