export { freePort, launchEmbeddedPostgres, startPostgres, type PostgresHandle } from './postgres.ts';
export * from './kafka.ts';
export { compareSchemaWithDatabase, normalizeSchema, readDatabase, readPrismaSchema } from './prisma-schema.ts';
