// Test harness: a real Postgres, the identity service on a free port, and a small browser that
// keeps cookies and plays the gateway's part (verifies the access cookie with the JWKS and signs
// the caller and its address into the service token).
import { createRemoteJWKSet, jwtVerify } from 'jose';
import pg from 'pg';
import { InProcessBus } from '@checkpoint/events';
import {
  provisionServiceDatabase,
  startService,
  type Logger,
  type Role,
  type RunningService,
} from '@checkpoint/service-kit';
import { gatewayHeaders, startPostgres, TEST_SERVICE_TOKEN_SECRET, type PostgresHandle } from '@checkpoint/testkit';
import { identityService } from '../src/index.ts';

export interface Harness {
  postgres: PostgresHandle;
  serviceUrl: string;
  identity: RunningService;
  bus: InProcessBus;
  /** Superuser pool with search_path = identity, for assertions and clock tricks. */
  db: pg.Pool;
  /** Another instance on the same database (a logger to capture its log lines). */
  start(env?: Record<string, string>, logger?: Logger): Promise<RunningService>;
  stop(): Promise<void>;
}

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const postgres = await startPostgres();
  const serviceUrl = await provisionServiceDatabase(postgres.url, 'identity');
  const bus = new InProcessBus();
  const db = new pg.Pool({ connectionString: postgres.url, options: '-c search_path=identity', max: 3 });
  // pool.end() resolves before its clients' sockets close: Postgres stopping right after (57P01)
  // must not surface as an unhandled error of the test run.
  db.on('error', () => {});
  const running: RunningService[] = [];
  const extraBuses: InProcessBus[] = [];
  const start = async (extra: Record<string, string> = {}, logger?: Logger) => {
    // The first instance uses `bus`; another one its own (a consumer group subscribes once per bus).
    const ownBus = running.length === 0 ? bus : new InProcessBus();
    if (ownBus !== bus) extraBuses.push(ownBus);
    const service = await startService(identityService, {
      env: {
        DATABASE_URL: serviceUrl,
        LOG_LEVEL: 'silent',
        SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
        ...env,
        ...extra,
      },
      bus: ownBus,
      ...(logger ? { logger } : {}),
    });
    running.push(service);
    return service;
  };
  const identity = await start();
  return {
    postgres,
    serviceUrl,
    identity,
    bus,
    db,
    start,
    async stop() {
      for (const s of running.reverse()) await s.stop().catch(() => {});
      await bus.stop().catch(() => {});
      for (const b of extraBuses) await b.stop().catch(() => {});
      await db.end().catch(() => {});
      await postgres.stop();
    },
  };
}

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are checked with matchers
  body: any;
  headers: Headers;
}

/** A browser talking to identity through a pretend gateway. */
export class Browser {
  readonly cookies = new Map<string, { value: string; attributes: string }>();
  private readonly jwks;
  constructor(
    readonly baseUrl: string,
    private readonly ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  ) {
    this.jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', baseUrl));
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v.value}`).join('; ');
    const access = this.cookie('cp_session');
    let caller: { userId: string; role: Role; tenantId: string; sessionId: string } | undefined;
    if (access) {
      try {
        const { payload } = await jwtVerify(access, this.jwks, {
          issuer: 'checkpoint-identity',
          audience: 'checkpoint',
        });
        caller = {
          userId: String(payload.sub),
          role: payload.role as Role,
          tenantId: String(payload.tid),
          sessionId: String(payload.sid),
        };
      } catch {
        // An invalid token is simply not forwarded, as in the gateway.
      }
    }
    Object.assign(headers, await gatewayHeaders('identity', caller, this.ip));
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      redirect: 'manual',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    this.store(res.headers);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  store(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = decodeURIComponent(pair.slice(eq + 1).trim());
      const attributes = attrs.join(';');
      const expired = /max-age=0/i.test(attributes) || /expires=Thu, 01 Jan 1970/i.test(attributes);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, attributes });
    }
  }
}

export function signUpBody(overrides: Record<string, unknown> = {}) {
  const n = Math.random().toString(36).slice(2, 10);
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${n}@example.com`,
    password: 'correct horse',
    role: 'teacher',
    ...overrides,
  };
}

/** The newest link to `path` (e.g. /verify-email) in the mail queued for `email` (outgoing_mail). */
export async function queuedLinkToken(h: Harness, email: string, path = '/verify-email'): Promise<string> {
  const { rows } = await h.db.query<{ text: string }>(
    'select text from outgoing_mail where "to" = $1 order by created_at desc',
    [email.toLowerCase()],
  );
  const pattern = new RegExp(`${path.replace(/[/-]/g, '\\$&')}\\?token=([A-Za-z0-9_-]+)`);
  for (const row of rows) {
    const token = pattern.exec(row.text)?.[1];
    if (token) return token;
  }
  throw new Error(`no mail to ${email} with a ${path} link`);
}

/**
 * Signs up as a person does: the password sign-up answers 202 and queues a link; opening it
 * (POST /api/auth/email/verify) creates the account (in the district owning the email's domain,
 * else in a new individual space) and signs the browser in. Returns the sign-up body and the user.
 */
export async function signUpByLink(h: Harness, overrides: Record<string, unknown> = {}, browser?: Browser) {
  const body = signUpBody(overrides);
  const b = browser ?? new Browser(h.identity.url);
  const res = await b.request('POST', '/api/auth/simple-signup', body);
  if (res.status !== 202) throw new Error(`sign-up: expected 202, got ${res.status} ${JSON.stringify(res.body)}`);
  const token = await queuedLinkToken(h, body.email as string);
  const opened = await b.request('POST', '/api/auth/email/verify', { token });
  if (opened.status !== 201)
    throw new Error(`sign-up link: expected 201, got ${opened.status} ${JSON.stringify(opened.body)}`);
  return {
    ...body,
    browser: b,
    user: opened.body.user as { id: string; email: string; role: string; accountType: string; tenantId: string },
  };
}
