// Through the gateway, with the real services: who is the caller, CSRF, throttling, refresh.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, eventually, signUp, startBackend, type Backend } from './helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies under test
type Json = any;

let backend: Backend;
beforeAll(async () => {
  // Default login limits (10 a minute per IP and per email), unlike the other contract tests.
  backend = await startBackend({ RATE_LIMIT_LOGIN_PER_MINUTE: '10', SESSION_REVOCATION_CHECK_MS: '200' });
});
afterAll(() => backend?.stop());

const FORGED = {
  'x-checkpoint-user-id': '00000000-0000-4000-8000-000000000001',
  'x-checkpoint-user-role': 'admin',
  'x-checkpoint-tenant-id': '00000000-0000-4000-8000-000000000002',
};

describe('the journey through the gateway', () => {
  it('when a user signs up, signs in, reads themselves and signs out, then each step answers as specified', async () => {
    const first = await signUp(backend.url, 'teacher');
    const email = first.user!.email;
    const browser = new Client(backend.url);
    const login = await browser.post('/api/auth/simple-login', { email, password: 'correct horse battery' });
    expect(login.status).toBe(200);
    const me = await browser.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, role: 'teacher' });
    expect(JSON.stringify(me.body)).not.toMatch(/hash|refresh|password/i);
    expect((await browser.post('/api/auth/logout')).status).toBe(204);
    expect((await browser.get('/api/auth/user')).status).toBe(401);
  });
});

describe('signing out', () => {
  it('when a session signs out, then a copy of its access cookie stops working on every service, and other sessions go on', async () => {
    const teacher = await signUp(backend.url, 'teacher');
    const elsewhere = new Client(backend.url);
    const login = await elsewhere.post('/api/auth/simple-login', {
      email: teacher.user!.email,
      password: 'correct horse battery',
    });
    expect(login.status).toBe(200);
    // The access cookie alone, as someone who copied it would send it (no refresh cookie).
    const copied = `cp_session=${encodeURIComponent(teacher.cookies.get('cp_session')!)}`;
    const withCopy = () => fetch(`${backend.url}/api/classes`, { headers: { cookie: copied } });
    expect((await withCopy()).status).toBe(200);

    expect((await teacher.post('/api/auth/logout')).status).toBe(204);
    // Refused once the gateway's list of revoked sessions is fetched again (every 200 ms here).
    const after = await eventually(withCopy, (res) => res.status === 401, 5_000);
    expect(after.status).toBe(401);
    expect((await elsewhere.get('/api/classes')).status).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(200);
  });
});

describe('caller identity', () => {
  it('when a signed-out client sends identity headers, then they grant nothing', async () => {
    const res = await fetch(`${backend.url}/api/auth/user`, { headers: FORGED });
    expect(res.status).toBe(401);
    const classes = await fetch(`${backend.url}/api/classes`, { headers: FORGED });
    expect(classes.status).toBe(401);
  });

  it('when a signed-in student sends identity headers, then the session wins', async () => {
    const student = await signUp(backend.url, 'student');
    const cookie = [...student.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${backend.url}/api/auth/user`, { headers: { ...FORGED, cookie } });
    expect(res.status).toBe(200);
    expect((await res.json()) as Json).toMatchObject({ id: student.user!.id, role: 'student' });
    const teacherOnly = await fetch(`${backend.url}/api/classes`, { headers: { ...FORGED, cookie } });
    expect(teacherOnly.status).toBe(403);
  });
});

describe('CSRF', () => {
  it('when a state-changing request has no CSRF header, then 403 and nothing changes', async () => {
    const teacher = await signUp(backend.url, 'teacher');
    const cookie = [...teacher.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${backend.url}/api/auth/user`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Mallory', lastName: 'X', email: teacher.user!.email }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as Json).message).toMatch(/CSRF/);
    expect((await teacher.get('/api/auth/user')).body.firstName).not.toBe('Mallory');
  });

  it('when the CSRF token belongs to another session or the Origin is foreign, then 403', async () => {
    const a = await signUp(backend.url, 'teacher');
    const b = await signUp(backend.url, 'teacher');
    const cookie = [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const wrongToken = await fetch(`${backend.url}/api/classes`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': b.cookies.get('cp_csrf')! },
      body: JSON.stringify({ name: 'Algebra', subject: 'Math', period: '1' }),
    });
    expect(wrongToken.status).toBe(403);
    const foreignOrigin = await fetch(`${backend.url}/api/classes`, {
      method: 'POST',
      headers: {
        cookie,
        'content-type': 'application/json',
        'x-csrf-token': a.cookies.get('cp_csrf')!,
        origin: 'https://evil.example',
      },
      body: JSON.stringify({ name: 'Algebra', subject: 'Math', period: '1' }),
    });
    expect(foreignOrigin.status).toBe(403);
    expect((await a.get('/api/classes')).body).toEqual([]);
  });
});

describe('sign-in throttling', () => {
  it('when the password is wrong, then 401; the 11th rapid attempt is throttled with Retry-After', async () => {
    const victim = await signUp(backend.url, 'teacher');
    const attacker = new Client(backend.url);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      last = await attacker.post('/api/auth/simple-login', { email: victim.user!.email, password: 'wrong-password' });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.body.message).toMatch(/Too many sign-in attempts/);
  });
});

describe('session refresh', () => {
  it('when the access cookie is gone but the refresh cookie is valid, then the gateway renews the session', async () => {
    const user = await signUp(backend.url, 'student');
    const oldRefresh = user.cookies.get('cp_refresh');
    user.cookies.delete('cp_session');
    const res = await user.get('/api/auth/user');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.user!.id);
    expect(user.cookies.get('cp_session')).toBeTruthy();
    expect(user.cookies.get('cp_refresh')).not.toBe(oldRefresh);
  });

  it('when the refresh cookie is forged, then the caller is signed out', async () => {
    const stranger = new Client(backend.url);
    stranger.cookies.set('cp_refresh', 'forged-token');
    expect((await stranger.get('/api/auth/user')).status).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('when the merged document is fetched, then it lists the services’ calls', async () => {
    const res = await fetch(`${backend.url}/api/openapi.json`);
    const doc = (await res.json()) as Json;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/simple-login', '/api/auth/user']));
  });
});

describe('the all-in-one', () => {
  it("when calls reach the services, then they are handed over in process: no service's server gets one", async () => {
    // The services' servers still serve the gateway's own calls (JWKS, session refresh, the
    // revocation list): only /api calls are counted.
    const received = new Map<string, number>();
    const counters = backend.app.services.map((s) => {
      const count = (req: IncomingMessage) => {
        if (req.url?.startsWith('/api/')) received.set(s.name, (received.get(s.name) ?? 0) + 1);
      };
      s.server.on('request', count);
      return () => s.server.off('request', count);
    });
    try {
      const teacher = await signUp(backend.url, 'teacher');
      const created = await teacher.post('/api/classes', { name: 'Handed over', subject: 'Math', period: '1' });
      expect(created.status).toBe(201);
      expect((await teacher.get('/api/classes')).status).toBe(200);
      expect((await teacher.get(`/api/classes/${created.body.id}/assessments`)).status).toBe(200);
      expect((await teacher.get('/api/all-results')).status).toBe(200);
      expect(Object.fromEntries(received)).toEqual({});
    } finally {
      for (const stop of counters) stop();
    }
  });
});
