// Process entry of the identity service.
import { runServiceMain } from '@checkpoint/service-kit';
import { identityService } from './service.ts';

await runServiceMain(identityService);
