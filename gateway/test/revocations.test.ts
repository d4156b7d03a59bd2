// The gateway's list of revoked sessions, against a stand-in for identity's internal call.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeServer, createLogger } from '@checkpoint/service-kit';
import { RevokedSessions } from '../src/revocations.ts';

interface Answer {
  status: number;
  body?: unknown;
  delayMs?: number;
}

let server: Server;
let url = '';
let answer: Answer;
let asked: string[] = [];
let clock = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    setTimeout(() => {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body ?? {}));
    }, answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => closeServer(server, 1000));
beforeEach(() => {
  asked = [];
  clock = Date.parse('2026-11-21T10:00:00Z');
});

const revokedAt = (msAgo: number) => new Date(clock - msAgo).toISOString();
const list = (sessions: { id: string; revokedAt: string }[], ttlSeconds = 900): Answer => ({
  status: 200,
  body: { asOf: new Date(clock).toISOString(), accessTokenTtlSeconds: ttlSeconds, sessions },
});
const revocations = () => new RevokedSessions(url, 5_000, createLogger('gateway', 'silent'), () => clock);

describe('revoked sessions at the gateway', () => {
  it('when identity lists a session, then it is refused until its last access token has expired', async () => {
    answer = list([{ id: 's1', revokedAt: revokedAt(60_000) }]);
    const r = revocations();
    expect(await r.isRevoked('s1')).toBe(true);
    expect(await r.isRevoked('s2')).toBe(false);
    expect(asked).toEqual(['/internal/sessions/revoked']);

    // Within the check interval the list is not fetched again.
    clock += 4_000;
    expect(await r.isRevoked('s1')).toBe(true);
    expect(asked).toHaveLength(1);

    // Then it is, from 30 s before identity's last answer (transactions still committing).
    answer = list([]);
    clock += 1_000;
    expect(await r.isRevoked('s1')).toBe(true);
    expect(asked[1]).toBe(`/internal/sessions/revoked?since=${encodeURIComponent('2026-11-21T09:59:30.000Z')}`);

    // 15 minutes after the revocation its tokens have expired: nothing left to refuse.
    clock += 900_000;
    expect(await r.isRevoked('s1')).toBe(false);
  });

  it('when identity fails, then the last list stands and requests stop waiting for identity', async () => {
    answer = list([{ id: 's1', revokedAt: revokedAt(0) }]);
    const r = revocations();
    expect(await r.isRevoked('s1')).toBe(true);

    answer = { status: 503 };
    clock += 5_000;
    expect(await r.isRevoked('s1')).toBe(true);
    expect(asked).toHaveLength(2);

    // Identity is now slow as well as failing: the next check does not wait for it.
    answer = { status: 503, delayMs: 1_500 };
    clock += 5_000;
    const started = performance.now();
    expect(await r.isRevoked('s1')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);

    // Once identity answers again, its list is used.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    answer = list([{ id: 's2', revokedAt: revokedAt(0) }]);
    clock += 5_000;
    await r.isRevoked('s2'); // starts the fetch in the background (identity was unreachable)
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await r.isRevoked('s2')).toBe(true);
    expect(await r.isRevoked('s1')).toBe(true);
  });

  it('when identity answers something else than the list, then nothing is taken from it', async () => {
    answer = { status: 200, body: { sessions: 'all' } };
    const r = revocations();
    expect(await r.isRevoked('all')).toBe(false);
  });
});
