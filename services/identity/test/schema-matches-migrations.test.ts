// schema.prisma describes exactly what the SQL migrations create (the test: @checkpoint/testkit).
import { describeSchemaMatchesMigrations } from '@checkpoint/testkit';
import { identityService } from '../src/index.ts';

describeSchemaMatchesMigrations(identityService, { minTables: 8 });
