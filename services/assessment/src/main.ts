// Process entry of the assessment service when it runs on its own (Kafka, its own DATABASE_URL).
import { runServiceMain } from '@checkpoint/service-kit';
import { assessmentService } from './service.ts';

await runServiceMain(assessmentService);
