// Process entry of the analytics service when it runs on its own (Kafka, its own DATABASE_URL).
import { runServiceMain } from '@checkpoint/service-kit';
import { analyticsService } from './service.ts';

await runServiceMain(analyticsService);
