// Express app factory and the typed endpoint helper: one zod schema per request part drives
// validation, role checks and the OpenAPI document.
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type NextFunction, type RequestHandler } from 'express';
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { peerAuthentication, readCaller, type Caller, type Role, type ServiceTokens } from './caller.ts';
import { isDatabaseUnavailable, isStatementCancelled } from './database.ts';
import { HTTP_STATUS_OF } from './error-status.ts';
import {
  AppError,
  ForbiddenError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from './errors.ts';
import type { Logger } from './logger.ts';
import { httpMetrics, readinessProbe } from './metrics.ts';
import { DeclaredMethods } from './method-guard.ts';
import { requestLogger } from './request-log.ts';
import { assertJsonDepth, bodyParserError, findNulCharacter } from './request-body.ts';

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
/** 'public': anyone; 'signed-in': any role; or the list of roles allowed. */
export type Access = 'public' | 'signed-in' | readonly Role[];

export interface EndpointSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  method: Method;
  /** Express-style path, e.g. /api/classes/:id */
  path: string;
  summary: string;
  access: Access;
  body?: B;
  query?: Q;
  params?: P;
  /** Success status; 204 when the handler returns undefined. */
  status?: number;
  response?: z.ZodType;
  /** Media types of a success that is not JSON (a file, an event stream), for the OpenAPI document. */
  produces?: string[];
  /** Error statuses this call can answer, for the OpenAPI document. */
  errors?: number[];
  /** Other success answers beside `status` (status → JSON body), for the OpenAPI document: e.g. 202 beside 201. */
  otherSuccesses?: Record<number, z.ZodType>;
}

export interface HandlerContext<B, Q, P, C> {
  body: B;
  query: Q;
  params: P;
  caller: C;
  req: Request;
  res: Response;
}

type CallerFor<A extends Access> = A extends 'public' ? Caller | undefined : Caller;

export const errorBodySchema = z
  .object({ message: z.string(), code: z.string(), fields: z.record(z.string(), z.string()).optional() })
  .meta({ id: 'Error' });

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not signed in',
  403: 'Role not allowed',
  404: 'Not found, or not yours',
  409: 'Conflict with existing data',
  413: 'Body too large',
  429: 'Too many requests',
  431: 'Request line and headers above 16 KB (a too long query)',
  503: 'Unavailable',
};

/** Collects endpoints of one service: an express router plus the OpenAPI paths. */
export class ApiRouter {
  /**
   * Case-sensitive, like the gateway's routing and the OpenAPI document: `/api/classes/{id}/Students`
   * is no route (404), not a second spelling of one that its audit trail or another check could miss.
   */
  readonly router = express.Router({ caseSensitive: true });
  readonly paths: ZodOpenApiPathsObject = {};
  /** Every declared path with its methods: for OPTIONS and 405 (see method-guard.ts). */
  readonly declared = new DeclaredMethods();

  add<
    B extends z.ZodType = z.ZodUnknown,
    Q extends z.ZodType = z.ZodUnknown,
    P extends z.ZodType = z.ZodUnknown,
    A extends Access = Access,
  >(
    spec: EndpointSpec<B, Q, P> & { access: A },
    handler: (ctx: HandlerContext<z.infer<B>, z.infer<Q>, z.infer<P>, CallerFor<A>>) => Promise<unknown> | unknown,
  ): this {
    this.document(spec);
    this.declared.add(spec.path, spec.method);
    const run: RequestHandler = async (req, res, next) => {
      try {
        const caller = readCaller(req);
        authorize(spec.access, caller);
        const body = parsePart(spec.body, req.body ?? {}, 'body');
        const query = parsePart(spec.query, req.query, 'query');
        const params = parsePart(spec.params, req.params, 'path');
        const result = await handler({ body, query, params, caller: caller as CallerFor<A>, req, res });
        if (res.headersSent) return;
        if (result === undefined) res.status(spec.status ?? 204).end();
        else res.status(spec.status ?? 200).json(result);
      } catch (err) {
        next(err);
      }
    };
    this.router[spec.method](spec.path, run);
    return this;
  }

  private document(spec: EndpointSpec<z.ZodType, z.ZodType, z.ZodType>): void {
    const openApiPath = spec.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const operation: ZodOpenApiOperationObject = {
      summary: spec.summary,
      description: describeAccess(spec.access),
      responses: {},
    };
    if (spec.params || spec.query) {
      operation.requestParams = {
        ...(spec.params ? { path: spec.params as never } : {}),
        ...(spec.query ? { query: spec.query as never } : {}),
      };
    }
    if (spec.body) {
      // Required unless an absent body (read as {}) is valid, so that the document says what the server does.
      const required = !spec.body.safeParse({}).success;
      operation.requestBody = { required, content: { 'application/json': { schema: spec.body } } };
    }
    const responses = operation.responses as Record<string, unknown>;
    const status = String(spec.status ?? (spec.response || spec.produces ? 200 : 204));
    responses[status] = spec.response
      ? { description: 'OK', content: { 'application/json': { schema: spec.response } } }
      : spec.produces
        ? { description: 'OK', content: Object.fromEntries(spec.produces.map((type) => [type, {}])) }
        : { description: 'OK' };
    for (const [other, schema] of Object.entries(spec.otherSuccesses ?? {})) {
      responses[other] = { description: 'OK', content: { 'application/json': { schema } } };
    }
    const errors = new Set(spec.errors ?? []);
    if (spec.body || spec.query || spec.params) errors.add(400);
    // A body above the service's limit is refused before validation.
    if (spec.body) errors.add(413);
    // Node refuses a request line and headers above 16 KB before any route runs, with no body.
    if (spec.query) errors.add(431);
    if (spec.access !== 'public') errors.add(401);
    if (Array.isArray(spec.access)) errors.add(403);
    for (const code of errors) {
      responses[String(code)] =
        code === 431
          ? { description: ERROR_TEXT[code] }
          : { description: ERROR_TEXT[code] ?? 'Error', content: { 'application/json': { schema: errorBodySchema } } };
    }
    const item = (this.paths[openApiPath] ??= {});
    item[spec.method] = operation;
  }
}

function describeAccess(access: Access): string {
  if (access === 'public') return 'Access: anyone.';
  if (access === 'signed-in') return 'Access: any signed-in user.';
  return `Access: ${access.join(', ')}.`;
}

function authorize(access: Access, caller: Caller | undefined): void {
  if (access === 'public') return;
  if (!caller) throw new UnauthorizedError();
  if (access !== 'signed-in' && !access.includes(caller.role)) {
    throw new ForbiddenError('Your role cannot do this');
  }
}

function parsePart<T extends z.ZodType | undefined>(schema: T, value: unknown, where: string) {
  if (!schema) return value as never;
  const nul = findNulCharacter(value);
  if (nul) {
    const message = 'Text must not contain NUL characters';
    throw new ValidationError(message, { [nul.length ? nul.join('.') : where]: message });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data as never;
  throw zodToValidationError(result.error, where);
}

export function zodToValidationError(error: z.ZodError, where = 'body'): ValidationError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    // A strict object's extra keys are each named as a field of their own.
    if (issue.code === 'unrecognized_keys') {
      for (const extra of issue.keys) fields[[...issue.path, extra].join('.')] ??= `Unknown field: ${extra}`;
      continue;
    }
    const key = issue.path.length ? issue.path.join('.') : where;
    fields[key] ??= issue.message;
  }
  const names = Object.keys(fields);
  const first = names[0] ? fields[names[0]] : 'Invalid input';
  return new ValidationError(names.length === 1 ? `${first}` : `Invalid ${where}: ${names.join(', ')}`, fields);
}

/** A route allowed a larger JSON body than the service's general limit. */
export interface LargeBody {
  method: 'post' | 'put';
  path: string;
  limitBytes: number;
}

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  routers: ApiRouter[];
  /** Extra routes outside /api (e.g. JWKS, internal endpoints). */
  extra?: (app: express.Express) => void;
  ready: () => Promise<boolean>;
  bodyLimit?: string;
  /** Routes whose JSON body may be larger than `bodyLimit` (a whole CASE framework): their own limit in bytes. */
  largeBodies?: LargeBody[];
  /** Verifies the service token every call but the open paths must carry (audience: `name`). */
  tokens: ServiceTokens;
}

/** Builds the service's express app. Never listens. */
export function createServiceApp(options: ServiceAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // The client's address comes only from the gateway's signed service token (clientAddress).
  app.set('trust proxy', false);
  app.set('query parser', 'simple');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Readiness: "can serve requests" (for a service: its database answers). Kubernetes takes a
  // replica that is not ready out of its Service, so nothing that the service can do without (Kafka,
  // a peer) belongs here.
  app.get('/readyz', readinessProbe(options.name, options.ready));
  // After the probes: they are not traffic.
  app.use(httpMetrics(options.name));
  app.use(
    requestLogger({
      logger: options.logger,
      requestId: (req) => {
        const incoming = req.headers['x-request-id'];
        return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
      },
      successLevel: 'debug',
      ignore: (req) => req.url === '/healthz' || req.url === '/readyz',
    }),
  );
  app.use(peerAuthentication(options.tokens, options.name));
  // The nesting check runs on the raw bytes, before JSON.parse and anything built on it.
  // A route with a limit of its own is parsed first (the general parser then finds it read).
  for (const large of options.largeBodies ?? [])
    app[large.method](
      large.path,
      express.json({ limit: large.limitBytes, verify: (_req, _res, buf, charset) => assertJsonDepth(buf, charset) }),
    );
  app.use(
    express.json({
      limit: options.bodyLimit ?? '100kb',
      verify: (_req, _res, buf, charset) => assertJsonDepth(buf, charset),
    }),
  );
  const declared = new DeclaredMethods();
  for (const r of options.routers) declared.merge(r.declared);
  app.use(declared.options());
  options.extra?.(app);
  for (const r of options.routers) app.use(r.router);
  app.use(declared.notAllowed());
  app.use((req, _res, next) => next(new AppError('not_found', 'not_found', `No route for ${req.method} ${req.path}`)));
  app.use(errorMiddleware(options.logger));
  return app;
}

/** Maps any error to { message, code, fields? }; logs only 5xx; never leaks a stack trace. */
export function errorMiddleware(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const { error: appError, status } = toAppError(err);
    // An outage (503) is a condition to watch, not a bug: warn; any other 5xx is an error.
    if (appError instanceof ServiceUnavailableError) (req.log ?? logger).warn({ err }, 'request failed: unavailable');
    else if (status >= 500) (req.log ?? logger).error({ err }, 'request failed');
    if (appError instanceof TooManyRequestsError || appError instanceof ServiceUnavailableError)
      res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    if (res.headersSent) return;
    res.status(status).json({
      message: appError.message,
      code: appError.code,
      ...(appError.fields ? { fields: appError.fields } : {}),
    });
  };
}

function toAppError(err: unknown): { error: AppError; status: number } {
  const known = (error: AppError) => ({ error, status: HTTP_STATUS_OF[error.kind] });
  if (err instanceof AppError) return known(err);
  const bodyError = bodyParserError(err);
  if (bodyError) return known(bodyError);
  if (isStatementCancelled(err))
    return known(new AppError('unavailable', 'timeout', 'This took too long on our side. Please try again.'));
  if (isDatabaseUnavailable(err))
    return known(new ServiceUnavailableError('The database is unavailable. Please try again shortly.'));
  // Another library's client error (an HttpError of Express's stack) keeps its own 4xx status.
  const e = err as { type?: string; status?: number; statusCode?: number };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { error: new AppError('invalid', 'bad_request', 'Bad request'), status };
  }
  return known(new AppError('internal', 'internal', 'Something went wrong on our side'));
}
