import { isIP } from 'node:net';
import {
  baseConfigSchema,
  envBoolean,
  envBytes,
  envPort,
  QTI_PACKAGE_DEFAULT_BYTES,
  serviceTokenSecret,
  STANDARDS_PACKAGE_DEFAULT_BYTES,
} from '@checkpoint/service-kit';
import { services, urlVariable, type Registry } from '@checkpoint/service-registry';
import { z } from 'zod';

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a CIDR range (address/bits or address/netmask) or one of express's keywords. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_KEYWORDS.includes(entry)) return true;
  const [address, range, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (!version || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(range) === 4;
}

/**
 * Proxies in front of the gateway whose X-Forwarded-For is believed (express's `trust proxy`).
 * Unset: none, the client's address is the socket's peer, and a made-up header changes nothing.
 */
export const trustedProxies = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const entries = (v ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean);
    const bad = entries.filter((e) => !isProxyEntry(e));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `not an address, CIDR range or loopback/linklocal/uniquelocal: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

const upstream = (service: string) =>
  z.url().optional().describe(`Base URL of the ${service} service; unset means its paths answer 503`);

const baseShape = {
  PORT: envPort(8080).describe('Port the gateway listens on'),
  HOST: baseConfigSchema.shape.HOST.describe('Interface to bind (0.0.0.0 in containers)'),
  LOG_LEVEL: baseConfigSchema.shape.LOG_LEVEL,
  PUBLIC_URL: z.url().default('http://localhost:8080').describe('Origin users reach the app at'),
  COOKIE_SECURE: envBoolean(false).describe('Mark cookies Secure and use __Host- names (true behind https)'),
  WEB_DIST: z.string().min(1).optional().describe('Folder of the built web app (default web/dist)'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(1_048_576),
  ROSTER_UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1_073_741_824)
    .default(104_857_600)
    .describe(
      'Largest OneRoster roster upload (POST /api/district/roster/imports), which alone may exceed BODY_LIMIT_BYTES',
    ),
  STANDARDS_UPLOAD_LIMIT_BYTES: envBytes(STANDARDS_PACKAGE_DEFAULT_BYTES, 209_715_200).describe(
    "Largest CASE framework package (POST /api/standards/frameworks, a state's framework is several MB), which alone may exceed BODY_LIMIT_BYTES; keep it equal to the assessment service's STANDARDS_PACKAGE_LIMIT_BYTES",
  ),
  QTI_UPLOAD_LIMIT_BYTES: envBytes(QTI_PACKAGE_DEFAULT_BYTES, 209_715_200).describe(
    "Largest QTI content package (POST /api/qti/imports), which alone may exceed BODY_LIMIT_BYTES; keep it equal to the assessment service's QTI_PACKAGE_LIMIT_BYTES",
  ),
  SESSION_REVOCATION_CHECK_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(5_000)
    .describe('How old the list of revoked sessions may get: a signed-out session stops working within this'),
  SESSION_REVOCATION_WAIT_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(25)
    .default(20)
    .describe(
      'How long identity may hold the request for revoked sessions, answering at once when one is revoked (other replicas learn of a sign-out within a moment); 0 polls only',
    ),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  SHUTDOWN_TIMEOUT_MS: baseConfigSchema.shape.SHUTDOWN_TIMEOUT_MS,
  OTEL_EXPORTER_OTLP_ENDPOINT: baseConfigSchema.shape.OTEL_EXPORTER_OTLP_ENDPOINT,
  SERVICE_TOKEN_SECRET: serviceTokenSecret().describe('Signs the service token of every call to a service'),
  TRUSTED_PROXIES: trustedProxies.describe('Comma list of proxies whose X-Forwarded-For is believed (default none)'),
};

/**
 * The gateway's settings, with a <NAME>_URL variable for each service of `registry`
 * (packages/service-registry); `upstreams` holds them by service name.
 */
export function gatewayConfigSchemaFor(registry: Registry) {
  const upstreamShape = Object.fromEntries(registry.map((s) => [urlVariable(s.name), upstream(s.name)]));
  // The variables' names come from the list: typed as the base shape, read back by name below.
  return z.object({ ...baseShape, ...upstreamShape } as typeof baseShape).transform((c) => ({
    ...c,
    COOKIE_SECURE: c.COOKIE_SECURE || c.PUBLIC_URL.startsWith('https:'),
    upstreams: Object.fromEntries(
      registry.map((s) => [s.name, (c as Record<string, unknown>)[urlVariable(s.name)] as string | undefined]),
    ),
  }));
}

export const gatewayConfigSchema = gatewayConfigSchemaFor(services);

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
