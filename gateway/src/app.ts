// The gateway: security headers, request ids, session check, CSRF, body limit, routing of /api to
// the owning service, the merged OpenAPI document, and the built web app with SPA fallback.
// No business logic lives here.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import express, { type Request, type Response } from 'express';
import helmet from 'helmet';
import {
  httpMetrics,
  mergeOpenApiDocuments,
  readinessProbe,
  requestLogger,
  safeDecode,
  sessionCookieNames,
  ServiceTokens,
  type Logger,
  type OpenApiDocument,
} from '@checkpoint/service-kit';
import {
  answerError,
  apiForwarder,
  clientOf,
  fastApi,
  isQtiUpload,
  isRosterUpload,
  isStandardsUpload,
  METHODS,
  pathOf,
  takesFastPath,
  type ApiRequest,
} from './api.ts';
import { SessionVerifier } from './auth.ts';
import type { GatewayConfig } from './config.ts';
import { requestCookies } from './cookies.ts';
import { createHandoff, type InProcessApp } from './handoff.ts';
import { createProxy, type Proxy } from './proxy.ts';
import { RevokedSessions } from './revocations.ts';
import { routeTable, services, type Registry } from '@checkpoint/service-registry';

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The gateway as a Node request listener: /api calls on the fast path (api.ts), the rest through Express. */
export type Gateway = (req: IncomingMessage, res: ServerResponse) => void;

/** The services' base URLs by name (<NAME>_URL); a service without one answers 503. */
export function upstreamsFrom(config: GatewayConfig): Record<string, string | undefined> {
  return config.upstreams;
}

export interface GatewayOptions {
  /**
   * Services whose apps run in this process (the all-in-one): their /api calls are handed to the
   * app (handoff.ts) rather than sent to their URL, which still serves the gateway's own calls
   * (JWKS, session refresh, the OpenAPI documents).
   */
  inProcess?: Record<string, InProcessApp>;
  /**
   * Whether this process can serve requests, for /readyz: the all-in-one's services' databases
   * answer. Unset (the gateway on its own): ready while it listens.
   */
  ready?: () => Promise<boolean>;
  /**
   * The services and their routes (packages/service-registry): the list's by default. The
   * config must come from gatewayConfigSchemaFor(the same list).
   */
  registry?: Registry;
}

export function createGateway(config: GatewayConfig, logger: Logger, options: GatewayOptions = {}): Gateway {
  const registry = options.registry ?? services;
  const serviceForPath = routeTable(registry);
  const upstreams = upstreamsFrom(config);
  const identityUrl = upstreams.identity;
  const publicOrigin = new URL(config.PUBLIC_URL).origin;
  const tokens = new ServiceTokens(config.SERVICE_TOKEN_SECRET, { issuer: 'gateway' });
  const revoked = identityUrl
    ? new RevokedSessions(
        identityUrl,
        config.SESSION_REVOCATION_CHECK_MS,
        logger,
        Date.now,
        () => tokens.headers('identity'),
        config.SESSION_REVOCATION_WAIT_SECONDS,
      )
    : undefined;
  const sessions = identityUrl
    ? new SessionVerifier(identityUrl, config.COOKIE_SECURE, logger, tokens, revoked)
    : undefined;
  const proxies = new Map<string, Proxy>();
  const proxyTo = (service: string, timeoutMs: number): Proxy | undefined => {
    const app = options.inProcess?.[service];
    if (app) return createHandoff(service, app, logger);
    const target = upstreams[service];
    return target ? createProxy(service, target, timeoutMs, logger) : undefined;
  };
  for (const { name: service } of registry) {
    const proxy = proxyTo(service, config.UPSTREAM_TIMEOUT_MS);
    if (proxy) proxies.set(service, proxy);
  }
  // (In process there is no timeout to lengthen: the same handoff.)
  const rosterProxy = options.inProcess?.identity
    ? proxies.get('identity')
    : proxyTo('identity', Math.max(config.UPSTREAM_TIMEOUT_MS, ROSTER_UPLOAD_TIMEOUT_MS));

  const forward = apiForwarder({
    serviceForPath,
    proxies,
    rosterProxy,
    sessions,
    revoked,
    tokens,
    publicOrigin,
    cookieSecure: config.COOKIE_SECURE,
    client: clientOf(config.TRUSTED_PROXIES),
  });

  const app = express();
  app.disable('x-powered-by');
  // Only the configured proxies' X-Forwarded-For is believed; by default req.ip is the socket's peer.
  app.set('trust proxy', config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Ready = can serve requests: a gateway that listens can (it keeps no state; a service that is
  // down answers 503 through it, and the web app is served all the same). Kubernetes must not take
  // every gateway out of the Service because one upstream is away. The all-in-one's gateway answers
  // for its process: ready when its services are (`options.ready`).
  app.get('/readyz', readinessProbe('gateway', options.ready ?? (async () => true)));
  // One observation per answered request, labelled by the service it went to (docs/telemetry.md).
  const metrics = httpMetrics('gateway', (req) => gatewayRoute(req, serviceForPath));
  const accessLog = requestLogger({
    logger,
    requestId: (req) => {
      const id = randomUUID();
      req.headers['x-request-id'] = id;
      return id;
    },
    successLevel: 'info',
    ignore: (req) => !req.url?.startsWith('/api/'),
  });
  app.use(metrics, accessLog);
  // helmet's headers are the same for every answer: worked out once, set with one loop per request.
  const securityHeaders = staticHeaders(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'https:'],
          'font-src': ["'self'", 'data:'],
          'connect-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'none'"],
          'frame-ancestors': ["'none'"],
          'form-action': ["'self'"],
        },
      },
      strictTransportSecurity: config.PUBLIC_URL.startsWith('https:'),
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use((_req, res, next) => {
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    next();
  });
  // Reads are what is worth compressing: the web app's files and the API's lists. The answer to a
  // write (a saved answer: a few hundred bytes, below compression's threshold) would only pay for
  // compression's wrapping of every write on the way out (bench/README.md, "Cost per answer").
  const compress = compression();
  app.use((req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? compress(req, res, next) : next()));
  // The cookies, as cookie-parser's parse would give them (no signed or JSON cookies are used here).
  app.use((req, _res, next) => {
    requestCookies(req);
    next();
  });

  app.use((req, res, next) => {
    // API answers carry personal data: no browser or proxy keeps them, errors included.
    if (req.path === '/api' || req.path.startsWith('/api/')) res.setHeader('Cache-Control', 'no-store');
    if (METHODS.includes(req.method)) return next();
    res.setHeader('Allow', METHODS.join(', '));
    res.status(405).json({ message: `Method ${req.method} is not allowed`, code: 'method_not_allowed' });
  });

  app.get('/api/openapi.json', async (_req, res) => {
    res.json(await collectOpenApi(upstreams));
  });

  // A district's roster upload (a zip of CSV files), a CASE framework package (JSON of several MB)
  // and a QTI content package (a zip) are the bodies allowed above BODY_LIMIT_BYTES; the general
  // parser below then finds them read.
  const rosterUpload = express.raw({ type: () => true, limit: config.ROSTER_UPLOAD_LIMIT_BYTES });
  const standardsUpload = express.raw({ type: () => true, limit: config.STANDARDS_UPLOAD_LIMIT_BYTES });
  const qtiUpload = express.raw({ type: () => true, limit: config.QTI_UPLOAD_LIMIT_BYTES });
  app.use('/api', (req, res, next) => {
    if (isRosterUpload(req)) return rosterUpload(req, res, next);
    if (isStandardsUpload(req)) return standardsUpload(req, res, next);
    if (isQtiUpload(req)) return qtiUpload(req, res, next);
    next();
  });
  app.use('/api', express.raw({ type: () => true, limit: config.BODY_LIMIT_BYTES }));
  app.use('/api', (req: ApiRequest & Request, res: Response, next) => {
    // Proxied with the original path (express strips the /api mount point from req.url).
    req.url = req.originalUrl;
    forward(req, res, Buffer.isBuffer(req.body) ? req.body : undefined).catch(next);
  });

  const webDist = config.WEB_DIST ?? DEFAULT_WEB_DIST;
  if (existsSync(path.join(webDist, 'index.html'))) {
    // Source maps are never served, even when a build left some behind.
    app.use((req, res, next) => {
      if (!/\.map$/i.test(safeDecode(req.path))) return next();
      res.status(404).json({ message: 'Not found', code: 'not_found' });
    });
    app.use(
      '/assets',
      express.static(path.join(webDist, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }),
    );
    app.use(express.static(webDist, { index: false, maxAge: '1h' }));
    // A visitor without session cookies gets the pre-rendered landing page at / (no script, no API
    // call before it shows), in the browser's language when the build has it (landing.<code>.html;
    // landing.html is English); with them, the app, which asks who is signed in.
    const landing = path.join(webDist, 'landing.html');
    if (existsSync(landing)) {
      const cookies = sessionCookieNames(config.COOKIE_SECURE);
      const translated = new Map(
        readdirSync(webDist).flatMap((file) => {
          const code = /^landing\.([a-z]{2})\.html$/.exec(file)?.[1];
          return code ? [[code, path.join(webDist, file)] as const] : [];
        }),
      );
      const languages = ['en', ...translated.keys()];
      app.get('/', (req, res, next) => {
        res.setHeader('Vary', 'Cookie, Accept-Language');
        if (req.cookies?.[cookies.session] || req.cookies?.[cookies.refresh]) return next();
        res.setHeader('Cache-Control', 'no-cache');
        const best = req.acceptsLanguages(languages);
        res.sendFile((best && translated.get(best)) || landing);
      });
    }
    app.get(/^(?!\/api\/).*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(webDist, 'index.html'));
    });
  } else {
    app.get('/', (_req, res) => {
      res.type('text').send('The web app is not built. Run `npm run build -w @checkpoint/web`.');
    });
  }

  app.use((err: unknown, req: Request, res: Response, _next: express.NextFunction) => answerError(req, res, err));

  const fast = fastApi({
    first: [metrics, accessLog],
    securityHeaders,
    // (compression is Connect middleware: it reads and wraps only what plain Node objects have.)
    compress: compress as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    forward,
  });
  const gateway: Gateway = (req, res) => (takesFastPath(req) ? fast(req, res) : app(req, res));
  if (revoked) closers.set(gateway, () => revoked.stop());
  return gateway;
}

const closers = new WeakMap<Gateway, () => void>();

/** How long the roster upload's answer (its preview) may take. */
const ROSTER_UPLOAD_TIMEOUT_MS = 300_000;

/** Ends what a gateway keeps running besides its server (the request held at identity); call at shutdown. */
export function stopGateway(gateway: Gateway): void {
  closers.get(gateway)?.();
}

/**
 * The headers a header-only middleware (helmet) sets, found by running it once against a stand-in
 * answer; refused when it does anything but set headers and pass the request on.
 */
function staticHeaders(middleware: express.RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  const answer = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  let passedOn = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as Request, answer as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    passedOn = true;
  });
  if (!passedOn || headers.length === 0) throw new Error('the security headers could not be worked out');
  return headers;
}

/** The route label of a gateway request: the service an API call went to, never its raw path. */
function gatewayRoute(
  req: IncomingMessage & { originalUrl?: string },
  serviceForPath: (path: string) => string | undefined,
): string {
  const url = req.originalUrl ?? req.url ?? '';
  if (!url.startsWith('/api')) return 'web';
  const service = serviceForPath(pathOf(url));
  return service ? `/api (${service})` : '/api (unmatched)';
}

async function collectOpenApi(upstreams: Record<string, string | undefined>): Promise<OpenApiDocument> {
  const docs = await Promise.all(
    Object.values(upstreams)
      .filter((u): u is string => Boolean(u))
      .map(async (base) => {
        try {
          const res = await fetch(new URL('/openapi.json', base), { signal: AbortSignal.timeout(3_000) });
          return res.ok ? ((await res.json()) as OpenApiDocument) : undefined;
        } catch {
          return undefined;
        }
      }),
  );
  return mergeOpenApiDocuments(
    'Checkpoint API',
    docs.filter((d): d is OpenApiDocument => Boolean(d)),
  );
}
