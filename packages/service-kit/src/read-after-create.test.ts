import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BusMessage } from '@checkpoint/events';
import { lookupNow, RecentReads, uuidv7, uuidv7Time, type RecentReadsOptions } from './read-after-create.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A lookup that finds `value` once `arrive()` was called, counting its calls. */
function copy<T>(value: T) {
  let present = false;
  const lookup = async () => {
    lookup.calls++;
    return present ? value : undefined;
  };
  lookup.calls = 0;
  return { lookup, arrive: () => (present = true) };
}

const reads = (o: Partial<RecentReadsOptions> = {}) =>
  new RecentReads({ windowMs: 10_000, maxWaitMs: 1_000, maxWaiters: 1000, ...o });

async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await p;
  return { value, ms: performance.now() - start };
}

describe('uuidv7', () => {
  it('when made, then it is a valid version 7 UUID that carries its creation time', () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const id = uuidv7(now);
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv7Time(id)).toBe(now);
    expect(uuidv7Time(id.toUpperCase())).toBe(now);
  });

  it('when made a millisecond apart, then the ids sort by time; made at once, they still differ', () => {
    const ids = Array.from({ length: 50 }, (_, i) => uuidv7(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => uuidv7(1_700_000_000_000)));
    expect(same.size).toBe(1000);
  });

  it('when an id is not a v7 UUID, then it has no time', () => {
    expect(uuidv7Time(randomUUID())).toBeUndefined();
    expect(uuidv7Time('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(uuidv7Time('not-a-uuid')).toBeUndefined();
    expect(uuidv7Time(uuidv7().replace(/-/g, ''))).toBeUndefined();
  });
});

describe('RecentReads.awaitRecent', () => {
  it('when a fresh id is missing and its consumer commits it 150 ms later, then the lookup finds it on the wake-up', async () => {
    // The poll fallback is far away: only notify() can end the wait early.
    const r = reads({ pollMs: 5_000, maxPollMs: 5_000, maxWaitMs: 3_000 });
    const id = uuidv7();
    const c = copy({ id });
    setTimeout(() => {
      c.arrive();
      r.notify([id.toUpperCase()]);
    }, 150);
    const { value, ms } = await timed(r.awaitRecent(id, c.lookup));
    expect(value).toEqual({ id });
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(1_000);
    expect(c.lookup.calls).toBe(2);
    expect(r.waiting).toBe(0);
  });

  it('when another replica stores the copy (no wake-up here), then the backoff re-check finds it', async () => {
    const r = reads({ pollMs: 20, maxPollMs: 100 });
    const id = uuidv7();
    const c = copy(true);
    setTimeout(c.arrive, 120);
    const { value, ms } = await timed(r.awaitRecent(id, c.lookup));
    expect(value).toBe(true);
    expect(ms).toBeLessThan(600);
  });

  it('when a fresh id never appears, then the wait ends at its bound with the miss, after a few lookups', async () => {
    const r = reads({ maxWaitMs: 300, pollMs: 20, maxPollMs: 100 });
    const c = copy('never');
    const { value, ms } = await timed(r.awaitRecent(uuidv7(), c.lookup));
    expect(value).toBeUndefined();
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(600);
    expect(c.lookup.calls).toBeLessThanOrEqual(8);
    expect(r.waiting).toBe(0);
  });

  it('when the id is old, random (v4), from the future or not a UUID, then the miss answers at once', async () => {
    const r = reads({ maxWaitMs: 2_000 });
    const ids = [
      uuidv7(Date.now() - 11_000),
      uuidv7(Date.now() - 3_600_000),
      randomUUID(),
      uuidv7(Date.now() + 60_000),
      'nonsense',
    ];
    for (const id of ids) {
      const c = copy(1);
      const { value, ms } = await timed(r.awaitRecent(id, c.lookup));
      expect(value, id).toBeUndefined();
      expect(ms, id).toBeLessThan(200);
      expect(c.lookup.calls, id).toBe(1);
    }
  });

  it("when this process already stored the id's events and the lookup misses (not the caller's), then it answers at once", async () => {
    const r = reads({ maxWaitMs: 2_000 });
    const id = uuidv7();
    r.notify([id]);
    const c = copy(1);
    const { value, ms } = await timed(r.awaitRecent(id.toUpperCase(), c.lookup));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(150);
    expect(c.lookup.calls).toBe(1);
  });

  it("when the wake-up comes and the lookup still misses (not the caller's), then it answers then, not at the bound", async () => {
    const r = reads({ maxWaitMs: 3_000, pollMs: 5_000, maxPollMs: 5_000 });
    const id = uuidv7();
    const c = copy(1);
    setTimeout(() => r.notify([id]), 100);
    const { value, ms } = await timed(r.awaitRecent(id, c.lookup));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(1_000);
    expect(c.lookup.calls).toBe(2);
  });

  it('when the commit lands while the first lookup is running, then that miss does not count as "not yours"', async () => {
    const r = reads({ maxWaitMs: 2_000, pollMs: 5_000, maxPollMs: 5_000 });
    const id = uuidv7();
    let calls = 0;
    const lookup = async () => {
      calls++;
      if (calls > 1) return 'stored';
      // The consumer commits after this lookup read (and missed), before it returns.
      r.notify([id]);
      return undefined;
    };
    const { value, ms } = await timed(r.awaitRecent(id, lookup));
    expect(value).toBe('stored');
    expect(ms).toBeLessThan(1_000);
  });

  it('when the id is found at once, then nothing waits', async () => {
    const r = reads();
    const c = copy('there');
    c.arrive();
    expect(await r.awaitRecent(uuidv7(), c.lookup)).toBe('there');
    expect(c.lookup.calls).toBe(1);
  });

  it('when the waits in progress reach the bound, then a further miss answers at once', async () => {
    const r = reads({ maxWaiters: 2, maxWaitMs: 400 });
    const waits = [r.awaitRecent(uuidv7(), copy(1).lookup), r.awaitRecent(uuidv7(), copy(1).lookup)];
    await sleep(10);
    expect(r.waiting).toBe(2);
    const { value, ms } = await timed(r.awaitRecent(uuidv7(), copy(1).lookup));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(150);
    await Promise.all(waits);
    expect(r.waiting).toBe(0);
  });

  it('when the window or the wait is 0, then nothing waits', async () => {
    for (const r of [reads({ windowMs: 0 }), reads({ maxWaitMs: 0 })]) {
      const { ms } = await timed(r.awaitRecent(uuidv7(), copy(1).lookup));
      expect(ms).toBeLessThan(150);
    }
  });

  it('when lookupNow is used, then it is the lookup alone', async () => {
    const c = copy(1);
    expect(await lookupNow(uuidv7(), c.lookup)).toBeUndefined();
    expect(c.lookup.calls).toBe(1);
  });
});

describe('RecentReads.notifying', () => {
  const message = (key: string): BusMessage => ({ topic: 't', key, value: new Uint8Array(), headers: {} });

  it('when the handler commits, then the waits on its keys wake; when it fails, they do not', async () => {
    const r = reads({ pollMs: 5_000, maxPollMs: 5_000, maxWaitMs: 700 });
    const id = uuidv7();
    const c = copy('stored');
    const sub = r.notifying({
      groupId: 'g',
      topics: ['t'],
      handler: async (m) => {
        if (m.key === 'fail') throw new Error('rolled back');
      },
      batchHandler: async () => {
        c.arrive();
      },
    });
    const wait = timed(r.awaitRecent(id, c.lookup));
    await sleep(20);
    await expect(sub.handler(message('fail'))).rejects.toThrow('rolled back');
    await sub.batchHandler!([message('other'), message(id)]);
    const { value, ms } = await wait;
    expect(value).toBe('stored');
    expect(ms).toBeLessThan(400);
  });
});
