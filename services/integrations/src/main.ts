// Process entry of the integrations service when it runs on its own (Kafka, its own DATABASE_URL).
import { runServiceMain } from '@checkpoint/service-kit';
import { integrationsService } from './service.ts';

await runServiceMain(integrationsService);
