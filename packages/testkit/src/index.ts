export { freePort, launchEmbeddedPostgres, startPostgres, type PostgresHandle } from './postgres.ts';
export * from './kafka.ts';
