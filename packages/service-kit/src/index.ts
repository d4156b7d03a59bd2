export {
  baseConfigSchema,
  ConfigError,
  envBoolean,
  envBytes,
  envPort,
  parseConfig,
  serviceTokenSecret,
  STANDARDS_PACKAGE_DEFAULT_BYTES,
  QTI_PACKAGE_DEFAULT_BYTES,
  type BaseConfig,
} from './config.ts';
export {
  clientAddress,
  peerAuthentication,
  peerClaims,
  readCaller,
  ROLES,
  SERVICE_TOKEN_HEADER,
  SERVICE_TOKEN_MIN_SECRET_LENGTH,
  ServiceTokens,
  type Caller,
  type PeerClaims,
  type Role,
  type ServiceTokenClaims,
} from './caller.ts';
export {
  createPool,
  databaseReachable,
  ident,
  inTransaction,
  isDatabaseUnavailable,
  isStatementCancelled,
  LIFT_STATEMENT_TIMEOUT,
  provisionServiceDatabase,
  runMigrations,
  type SharedMigration,
} from './database.ts';
export { HTTP_STATUS_OF } from './error-status.ts';
export {
  AppError,
  ConflictError,
  ERROR_KINDS,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
  type ErrorKind,
} from './errors.ts';
export {
  ApiRouter,
  createServiceApp,
  errorBodySchema,
  errorMiddleware,
  zodToValidationError,
  type Access,
  type EndpointSpec,
  type HandlerContext,
  type LargeBody,
} from './http.ts';
export { closeServer, exitOnSignalWhileStarting, listen, onShutdownSignal, SHUTDOWN_GRACE_MS } from './lifecycle.ts';
export {
  bodyParserError,
  findNulCharacter,
  jsonNestingExceeds,
  MAX_JSON_DEPTH,
  readRawBody,
  tooDeepError,
} from './request-body.ts';
export { createLogger, type Logger } from './logger.ts';
export { csvCell, csvText, type CsvOptions } from './csv.ts';
export {
  EMAIL,
  isVisibleName,
  nameText,
  normalizeName,
  NOT_BLANK,
  optionalText,
  requiredText,
  SPACE,
  VISIBLE,
} from './text.ts';
export { documentedAs, inputJsonSchema, type JsonSchema } from './documented.ts';
export { LOG_LEVEL_HEADER, requestLogger, type RequestLogOptions } from './request-log.ts';
export { buildOpenApiDocument, mergeOpenApiDocuments, type OpenApiDocument } from './openapi.ts';
export {
  exitOnStartupError,
  startupCause,
  migrateService,
  runServiceMain,
  startService,
  type RunningService,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceParts,
  type StartOptions,
} from './service.ts';
export {
  lookupNow,
  RecentReads,
  uuidv7,
  uuidv7Time,
  type AwaitRecent,
  type RecentReadsOptions,
} from './read-after-create.ts';
export { sessionCookieNames, type SessionCookieNames } from './session-cookies.ts';
export { startTelemetry, stopTelemetry } from './telemetry.ts';
export {
  countDeadLetter,
  DEFAULT_METRICS_PORT,
  enableMetrics,
  expressRoute,
  httpMetrics,
  readinessProbe,
  registerService,
  relayMetrics,
  startMetricsServer,
  type MetricsServer,
} from './metrics.ts';
export {
  AUDIT_TARGETS_MAX,
  auditTargetId,
  auditTargetSpellings,
  auditTrail,
  deleteOlderThan,
  poolTransactions,
  privacySubscription,
  RetentionJob,
  safeDecode,
  type AuditAction,
  type AuditedRoute,
  type BeforeErase,
  type PrivacyParticipant,
} from './privacy.ts';
export { PollingLoop, type PollingLoopOptions } from '@checkpoint/events';
export { isUniqueViolation, prismaFactory, type PrismaClientClass } from './prisma.ts';
export {
  checkOutboundUrl,
  fetchOutbound,
  isLoopbackHost,
  refusedAddress,
  type EgressOptions,
  type FetchOutboundOptions,
} from './egress.ts';
export { embeddedDatabaseUrl, operatorDatabaseShape, type CommandOutput } from './embedded-database.ts';
export { reducedOptions } from './reduced-choices.ts';
