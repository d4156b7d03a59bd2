// The signed-out join page's check of a code (GET /api/classes/join-code): the class's name or 404,
// nothing else, rate limited per client address (RATE_LIMIT_JOIN_LOOKUP_PER_MINUTE).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, startClassService, VALID_CLASS, type Harness } from './helpers.ts';

const LIMIT = 5;
let h: Harness;
let calls = 0;
const teacher = actor('teacher');

async function lookUp(code: string) {
  calls += 1;
  return call(h, undefined, 'GET', `/api/classes/join-code?joinCode=${encodeURIComponent(code)}`);
}

beforeAll(async () => {
  h = await startClassService({ RATE_LIMIT_JOIN_LOOKUP_PER_MINUTE: String(LIMIT) });
});
afterAll(async () => {
  await h?.stop();
});

describe('join code check, signed out', () => {
  it("when the code names an active class (in any case), then only the class's name comes back; an unknown or archived class's code is 404", async () => {
    const created = await call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, name: 'Biology 7' });
    expect(created.status).toBe(201);
    const { id, joinCode } = created.body as { id: string; joinCode: string };

    const found = await lookUp(` ${joinCode.toLowerCase()} `);
    expect(found.status).toBe(200);
    // No id, teacher, tenant or counts: what the join itself would tell a student, no more.
    expect(found.body).toEqual({ className: 'Biology 7' });

    const unknown = await lookUp(joinCode === 'ZZZZZZZ' ? 'YYYYYYY' : 'ZZZZZZZ');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/not found/i);

    expect((await call(h, teacher, 'PUT', `/api/classes/${id}/archive`)).status).toBe(200);
    expect((await lookUp(joinCode)).status).toBe(404);
  });

  it('when the code is malformed, then 400 names the field', async () => {
    const bad = await call(h, undefined, 'GET', '/api/classes/join-code?joinCode=AB');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('joinCode');
    const missing = await call(h, undefined, 'GET', '/api/classes/join-code');
    expect(missing.status).toBe(400);
  });

  it('when one address keeps checking codes, then it gets 429 with Retry-After past the limit', async () => {
    while (calls < LIMIT) expect((await lookUp('QQQQQQQ')).status).toBe(404);
    const limited = await lookUp('QQQQQQQ');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });
});
