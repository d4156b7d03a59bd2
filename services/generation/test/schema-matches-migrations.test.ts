// schema.prisma describes exactly what the SQL migrations create (the test: @checkpoint/testkit).
import { describeSchemaMatchesMigrations } from '@checkpoint/testkit';
import { generationService } from '../src/index.ts';

describeSchemaMatchesMigrations(generationService, { minTables: 2 });
