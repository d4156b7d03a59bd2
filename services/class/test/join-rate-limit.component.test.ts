// Join attempts are limited per student (RATE_LIMIT_JOIN_PER_MINUTE), counted in Postgres.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, startClassService, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startClassService({ RATE_LIMIT_JOIN_PER_MINUTE: '3' });
});
afterAll(async () => {
  await h?.stop();
});

describe('join rate limit', () => {
  it('when a student keeps guessing codes, then the 4th attempt in a minute answers 429 with Retry-After', async () => {
    const s = actor('student');
    for (let i = 0; i < 3; i++) {
      expect((await call(h, s, 'POST', '/api/classes/join', { joinCode: `GUESS${i + 2}A` })).status).toBe(404);
    }
    const limited = await call(h, s, 'POST', '/api/classes/join', { joinCode: 'GUESS9A' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // join-direct shares the budget.
    expect((await call(h, s, 'POST', `/api/classes/${crypto.randomUUID()}/join-direct`)).status).toBe(429);
  });

  it('when one student is limited, then another student can still join', async () => {
    const other = actor('student');
    expect((await call(h, other, 'POST', '/api/classes/join', { joinCode: 'ABCDEFG' })).status).toBe(404);
  });
});
