// A browser-like session against the gateway for the benchmark's scripts: keeps cookies, sends
// X-CSRF-Token and Origin on state-changing calls, parses JSON answers. Node built-ins only.
export class Session {
  cookies = new Map();

  /** `beforeRequest(what)` runs before each call (the seed checks its deadline there). */
  constructor(baseUrl, { beforeRequest } = {}) {
    this.baseUrl = baseUrl;
    this.beforeRequest = beforeRequest;
  }

  async request(method, url, body) {
    this.beforeRequest?.(`${method} ${url}`);
    if (method !== 'GET' && !this.cookies.has('cp_csrf')) await this.request('GET', '/api/auth/user');
    const headers = { ...this.headers() };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') {
      headers['x-csrf-token'] = this.cookies.get('cp_csrf') ?? '';
      headers.origin = new URL(this.baseUrl).origin;
    }
    const res = await fetch(new URL(url, this.baseUrl), {
      method,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
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
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: res.status, body: json };
  }

  /** The cookie header of this session (for calls made without `request`, e.g. an event stream). */
  headers() {
    return this.cookies.size
      ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') }
      : {};
  }

  get = (url) => this.request('GET', url);
  post = (url, body = {}) => this.request('POST', url, body);
}
