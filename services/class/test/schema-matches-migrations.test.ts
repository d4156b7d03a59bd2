// schema.prisma describes exactly what the SQL migrations create (the test: @checkpoint/testkit).
import { describeSchemaMatchesMigrations } from '@checkpoint/testkit';
import { classService } from '../src/index.ts';

describeSchemaMatchesMigrations(classService, { minTables: 2 });
