// schema.prisma describes exactly what the SQL migrations create (the test: @checkpoint/testkit).
import { describeSchemaMatchesMigrations } from '@checkpoint/testkit';
import { assessmentService } from '../src/index.ts';

describeSchemaMatchesMigrations(assessmentService, { minTables: 2 });
