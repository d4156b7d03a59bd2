export { freePort, launchEmbeddedPostgres, startPostgres, type PostgresHandle } from './postgres.ts';
export * from './kafka.ts';
export { compareSchemaWithDatabase, normalizeSchema, readDatabase, readPrismaSchema } from './prisma-schema.ts';
export { actor, call, startServiceForTest, type Actor, type Harness, type Reply } from './service-harness.ts';
export { eventually } from './eventually.ts';
