// Process entry of the class service when it runs on its own (Kafka, its own DATABASE_URL).
import { runServiceMain } from '@checkpoint/service-kit';
import { classService } from './service.ts';

await runServiceMain(classService);
