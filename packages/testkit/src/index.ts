export {
  freePort,
  launchEmbeddedPostgres,
  leaveShutdownSignalsToCaller,
  startPostgres,
  SUPERUSER_PASSWORD_FILE,
  type PostgresHandle,
} from './postgres.ts';
export { startCrashablePostgres, type CrashablePostgres } from './crashable-postgres.ts';
export { eventMessage } from './events.ts';
export * from './kafka.ts';
export { compareSchemaWithDatabase, normalizeSchema, readDatabase, readPrismaSchema } from './prisma-schema.ts';
export { describeMailQueueTable, describeSchemaMatchesMigrations } from './schema-drift.ts';
export {
  actor,
  call,
  gatewayHeaders,
  startServiceForTest,
  TEST_SERVICE_TOKEN_SECRET,
  testServiceTokens,
  type Actor,
  type Harness,
  type Reply,
} from './service-harness.ts';
export { eventually } from './eventually.ts';
export { stopOrphanedPostgres, type OrphanOutcome } from './orphaned-postgres.ts';
export { startMailCatcher, type CaughtMail, type MailCatcher } from './mail-catcher.ts';
export { startBalancer, type Balancer } from './balancer.ts';
