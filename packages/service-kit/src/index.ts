export { baseConfigSchema, ConfigError, envBoolean, envPort, parseConfig, type BaseConfig } from './config.ts';
export { CALLER_HEADERS, readCaller, ROLES, type Caller, type Role } from './caller.ts';
export { createPool, ident, inTransaction, provisionServiceDatabase, runMigrations } from './database.ts';
export {
  AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
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
} from './http.ts';
export { closeServer, listen, onShutdownSignal } from './lifecycle.ts';
export { createLogger, type Logger } from './logger.ts';
export { requestLogger, type RequestLogOptions } from './request-log.ts';
export { buildOpenApiDocument, mergeOpenApiDocuments, type OpenApiDocument } from './openapi.ts';
export {
  exitOnStartupError,
  runServiceMain,
  startService,
  type RunningService,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceParts,
  type StartOptions,
} from './service.ts';
export { sessionCookieNames, type SessionCookieNames } from './session-cookies.ts';
export { startTelemetry, stopTelemetry } from './telemetry.ts';
