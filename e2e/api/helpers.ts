// API contract test harness: the whole backend in one process (app/src/compose.ts) on a fresh
// database, and a cookie-keeping client that behaves like the web app (CSRF header, Origin).
import { createLogger } from '@checkpoint/service-kit';
import {
  eventually,
  startMailCatcher,
  startPostgres,
  type MailCatcher,
  type PostgresHandle,
} from '@checkpoint/testkit';
import { linksIn } from '@checkpoint/mail';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';
import type { LocalMailbox } from '../../app/src/local-mailbox.ts';

export { eventually };

export interface Backend {
  url: string;
  app: AllInOne;
  postgres: PostgresHandle;
  /** The SMTP server the backend's mail goes to (SMTP_URL): the tests read the links in it. */
  mail: MailCatcher;
  stop(): Promise<void>;
}

export async function startBackend(env: Record<string, string> = {}): Promise<Backend> {
  const [postgres, mail] = await Promise.all([startPostgres(), startMailCatcher()]);
  const app = await startAllInOne({
    postgresUrl: postgres.url,
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('e2e', 'silent'),
    env: {
      LOG_LEVEL: 'silent',
      RATE_LIMIT_SIGNUP_PER_MINUTE: '10000',
      RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
      RATE_LIMIT_PROFILE_PER_MINUTE: '10000',
      RATE_LIMIT_EMAIL_PER_MINUTE: '10000',
      // Every test signs up from one address and creates assessments in bursts.
      RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '10000',
      RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: '10000',
      SMTP_URL: mail.url,
      ...env,
    },
  });
  const forget = readMailOf(app.url, mail);
  return {
    url: app.url,
    app,
    postgres,
    mail,
    stop: async () => {
      forget();
      await app.stop();
      await Promise.all([postgres.stop(), mail.stop()]);
    },
  };
}

export interface Reply {
  status: number;
  // Arbitrary JSON under test: the assertions check its shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

/** A browser session against the gateway: keeps cookies, sends X-CSRF-Token and Origin. */
export class Client {
  readonly cookies = new Map<string, string>();
  user: { id: string; tenantId: string; role: string; firstName: string; lastName: string; email: string } | undefined;

  /** timeoutMs: how long a request may take before it fails (none by default). */
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs?: number,
  ) {}

  async request(method: string, path: string, body?: unknown): Promise<Reply> {
    if (method !== 'GET' && !this.cookies.has('cp_csrf')) await this.request('GET', '/api/auth/user');
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    if (method !== 'GET') {
      headers['x-csrf-token'] = this.cookies.get('cp_csrf') ?? '';
      headers.origin = this.baseUrl;
    }
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      redirect: 'manual',
      ...(this.timeoutMs ? { signal: AbortSignal.timeout(this.timeoutMs) } : {}),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = decodeURIComponent(pair.slice(eq + 1).trim());
      if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body: unknown = {}) => this.request('POST', path, body);
  put = (path: string, body: unknown = {}) => this.request('PUT', path, body);
  del = (path: string) => this.request('DELETE', path);
}

export interface ClassJson {
  id: string;
  name: string;
  subject: string;
  period: string | null;
  joinCode: string;
  teacherName: string | null;
  [key: string]: unknown;
}

export interface MemberJson {
  id: string;
  student: { id: string; firstName: string | null; lastName: string | null; email: string | null };
}

let counter = 0;

/**
 * Where a test reads a backend's mail: the SMTP server its SMTP_URL names (a MailCatcher), or the
 * all-in-one's own local mailbox (AllInOne.mailbox, when SMTP_URL is unset).
 */
export type MailSource = MailCatcher | Pick<LocalMailbox, 'messages'>;

/** The mail of each backend by its origin: signUp(url) reads its sign-up link there. */
const mailOfBackend = new Map<string, MailSource>();

/**
 * Lets signUp(url) read the mail of the backend at `url` (startBackend does this itself; a test
 * that starts its own all-in-one or stack calls it). Returns a function that forgets it again.
 */
export function readMailOf(url: string, mail: MailSource): () => void {
  const origin = new URL(url).origin;
  mailOfBackend.set(origin, mail);
  return () => void mailOfBackend.delete(origin);
}

/** The one-time link (…/verify-email?token=…) of the newest mail to `email` that has one. */
export async function linkMailedTo(
  mail: MailSource,
  email: string,
  path = '/verify-email',
  timeoutMs = 15_000,
): Promise<{ url: URL; token: string }> {
  const to = email.toLowerCase();
  const linkIn = (m: { to: string[]; text: string; html?: string | null }) =>
    m.to.includes(to)
      ? linksIn({ text: m.text, html: m.html ?? null }).find((l) => new URL(l).pathname === path)
      : undefined;
  let link: string | undefined;
  if ('waitFor' in mail) {
    await mail.waitFor((m) => linkIn(m) !== undefined, timeoutMs);
    link = mail.messages().map(linkIn).filter(Boolean).at(-1);
  } else {
    // The local mailbox lists the newest first; the services' mail sender delivers it shortly after.
    link = (await eventually(async () => mail.messages().map(linkIn).find(Boolean), Boolean, timeoutMs)) ?? undefined;
    if (!link) throw new Error(`no mail to ${email} with a ${path} link within ${timeoutMs} ms`);
  }
  const url = new URL(link!);
  return { url, token: url.searchParams.get('token') ?? '' };
}

/**
 * A new user who signed up with a password, the way a person does (docs/security.md): the sign-up
 * answers 202 and mails a link; opening it (the web page posts its token to /api/auth/email/verify)
 * creates the account and signs in. At a district's domain (`domain`) the account is the district's
 * member; at any other, it is in a new individual space. `backend` is the backend itself or its URL
 * (whose mail startBackend or readMailOf registered). `client` (default: a new one) ends up signed
 * in as the new user.
 */
export async function signUp(
  backend: string | { url: string; mail: MailSource },
  role: 'teacher' | 'student',
  options: { domain?: string; firstName?: string; lastName?: string; client?: Client } = {},
): Promise<Client> {
  const url = typeof backend === 'string' ? backend : backend.url;
  const mail = typeof backend === 'string' ? mailOfBackend.get(new URL(url).origin) : backend.mail;
  if (!mail) throw new Error(`signUp: no mail known for ${url} (startBackend registers it; else call readMailOf)`);
  const client = options.client ?? new Client(url);
  const n = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const email = `${role}.${n}@${options.domain ?? `solo-${n}.example.com`}`;
  const res = await client.post('/api/auth/simple-signup', {
    firstName: options.firstName ?? (role === 'teacher' ? 'Tess' : 'Sam'),
    lastName: options.lastName ?? `User${n}`,
    email,
    password: 'correct horse battery',
    role,
  });
  if (res.status !== 202) throw new Error(`sign-up answered ${res.status}, not 202: ${JSON.stringify(res.body)}`);
  const { token } = await linkMailedTo(mail, email);
  const opened = await client.post('/api/auth/email/verify', { token });
  if (opened.status !== 201)
    throw new Error(`sign-up link answered ${opened.status}, not 201: ${JSON.stringify(opened.body)}`);
  client.user = opened.body.user;
  return client;
}

/**
 * A member of the district that owns `domain` (docs/security.md, "District membership"): signUp at
 * the district's domain.
 */
export function joinDistrict(
  backend: Pick<Backend, 'url' | 'mail'>,
  role: 'teacher' | 'student',
  options: { domain: string; firstName?: string; lastName?: string; client?: Client },
): Promise<Client> {
  return signUp(backend, role, options);
}
