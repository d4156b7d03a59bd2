// The polling loop's schedule, on a fake clock (no real waiting): when passes start, how failures
// back off, what wake() and stop() do. LISTEN/NOTIFY against Postgres is covered by the relay's and
// the mail sender's tests, which run on it.
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollingLoop, type PollingLoopOptions } from '../src/index.ts';

/** Every pass still running, ended after each test (so that stop() can return). */
const unfinished: (() => void)[][] = [];

/** A pass whose runs are recorded (start times on the fake clock) and ended by the test. */
function controlledPass(outcomes: ('ok' | 'more' | 'fail')[] = []) {
  const starts: number[] = [];
  const ends: (() => void)[] = [];
  unfinished.push(ends);
  let inFlight = 0;
  let overlapped = false;
  const pass = () => {
    starts.push(Date.now());
    if (++inFlight > 1) overlapped = true;
    const outcome = outcomes.shift() ?? 'ok';
    return new Promise<boolean>((resolve, reject) => {
      ends.push(() => {
        inFlight--;
        if (outcome === 'fail') reject(new Error('database unavailable'));
        else resolve(outcome === 'more');
      });
    });
  };
  return {
    pass,
    starts,
    /** Ends the oldest pass still running, and lets the loop react. */
    async end() {
      ends.shift()?.();
      await vi.advanceTimersByTimeAsync(0);
    },
    get overlapped() {
      return overlapped;
    },
  };
}

const loops: PollingLoop[] = [];
function loopOf(options: Partial<PollingLoopOptions> & Pick<PollingLoopOptions, 'pass'>): PollingLoop {
  const loop = new PollingLoop({ name: 'test loop', intervalMs: 1000, ...options });
  loops.push(loop);
  return loop;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(async () => {
  for (const ends of unfinished.splice(0)) for (const end of ends.splice(0)) end();
  await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  vi.useRealTimers();
});

describe('PollingLoop', () => {
  it('when started, then the first pass runs at once and each next one an interval after the last ended', async () => {
    const p = controlledPass();
    await loopOf({ pass: p.pass }).start();
    expect(p.starts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(300);
    await p.end();
    await vi.advanceTimersByTimeAsync(999);
    expect(p.starts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.starts).toEqual([0, 1300]);
  });

  it('when a pass reports more work, then the next pass starts without a pause', async () => {
    const p = controlledPass(['more', 'more', 'ok']);
    await loopOf({ pass: p.pass }).start();
    await p.end();
    await p.end();
    await p.end();
    expect(p.starts).toEqual([0, 0, 0]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(p.starts).toEqual([0, 0, 0, 1000]);
  });

  it('when passes fail, then the pauses follow the backoff, wake() does not cut them short, and a success ends it', async () => {
    const p = controlledPass(['fail', 'fail', 'ok', 'fail']);
    const errors: number[] = [];
    const loop = loopOf({
      pass: p.pass,
      backoffMs: (failures) => 100 * 2 ** failures,
      onError: (_error, failures) => errors.push(failures),
    });
    await loop.start();
    await p.end(); // failed once: 200 ms
    loop.wake();
    await vi.advanceTimersByTimeAsync(199);
    expect(p.starts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await p.end(); // failed twice: 400 ms
    await vi.advanceTimersByTimeAsync(400);
    expect(p.starts).toEqual([0, 200, 600]);
    expect(loop.failures).toBe(2);
    await p.end(); // succeeded: the interval again
    expect(loop.failures).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    await p.end(); // failed once more: counted from 1
    expect(errors).toEqual([1, 2, 1]);
    expect(p.starts).toEqual([0, 200, 600, 1600]);
  });

  it('when a pass fails and no backoff is given, then the ordinary pause follows', async () => {
    const p = controlledPass(['fail']);
    const errors: unknown[] = [];
    await loopOf({ pass: p.pass, onError: (error) => errors.push(error) }).start();
    await p.end();
    await vi.advanceTimersByTimeAsync(1000);
    expect(p.starts).toEqual([0, 1000]);
    expect(String(errors[0])).toContain('database unavailable');
  });

  it('when woken during a pause, then a pass runs at once; when woken during a pass, then one more runs right after it, never two at once', async () => {
    const p = controlledPass();
    const loop = loopOf({ pass: p.pass });
    await loop.start();
    await p.end();
    await vi.advanceTimersByTimeAsync(250);
    loop.wake();
    expect(p.starts).toEqual([0, 250]);
    loop.wake();
    loop.wake();
    await vi.advanceTimersByTimeAsync(100);
    await p.end();
    expect(p.starts).toEqual([0, 250, 350]);
    await p.end();
    await vi.advanceTimersByTimeAsync(999);
    expect(p.starts).toEqual([0, 250, 350]);
    expect(p.overlapped).toBe(false);
  });

  it('when paced at a fixed rate, then passes start on the interval grid from start, and a tick that comes during a pass is skipped', async () => {
    const p = controlledPass();
    await loopOf({ pass: p.pass, pace: 'fixed-rate' }).start();
    expect(p.starts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(300);
    await p.end();
    await vi.advanceTimersByTimeAsync(700);
    expect(p.starts).toEqual([1000, 2000]);
    // This pass outlasts the tick at 3000: the next one starts at 4000.
    await vi.advanceTimersByTimeAsync(1500);
    await p.end();
    await vi.advanceTimersByTimeAsync(499);
    expect(p.starts).toEqual([1000, 2000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.starts).toEqual([1000, 2000, 4000]);
  });

  it('when stopped during a pass, then stop() resolves only once the pass has ended, and no pass runs after it', async () => {
    const p = controlledPass();
    const loop = loopOf({ pass: p.pass });
    await loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    expect(loop.running).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    await p.end();
    await stopping;
    loop.wake();
    await vi.advanceTimersByTimeAsync(5000);
    expect(p.starts).toEqual([0]);
  });

  it('when a pass outlasts stopTimeoutMs, then stop() gives up on it after that long and says so', async () => {
    const p = controlledPass();
    const warnings: string[] = [];
    const loop = loopOf({ pass: p.pass, stopTimeoutMs: 2000, logger: { warn: (_obj, msg) => warnings.push(msg!) } });
    await loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(warnings).toEqual(['test loop: batch still running at stop, abandoned']);
    await p.end();
  });

  it('when stop() is given more work to settle, then it waits for that too', async () => {
    const p = controlledPass();
    let finishCleanup = () => {};
    const cleanup = new Promise<void>((resolve) => (finishCleanup = resolve));
    const loop = loopOf({ pass: p.pass, settle: () => cleanup });
    await loop.start();
    await p.end();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    finishCleanup();
    await stopping;
  });

  it('when stop() is called twice during a pass, then the second call too resolves only once the pass has ended', async () => {
    const p = controlledPass();
    const loop = loopOf({ pass: p.pass });
    await loop.start();
    void loop.stop();
    let stopped = false;
    const second = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    await p.end();
    await second;
  });

  it('when onError itself throws, then the loop goes on polling and stop() still resolves', async () => {
    const p = controlledPass(['fail', 'ok']);
    const loop = loopOf({
      pass: p.pass,
      onError: () => {
        throw new Error('logger broken');
      },
    });
    await loop.start();
    await p.end();
    await vi.advanceTimersByTimeAsync(1000);
    expect(p.starts).toEqual([0, 1000]);
    await p.end();
    await loop.stop();
  });

  it('when stop() comes while LISTEN is being set up again after a pause, then no pass runs after it', async () => {
    const p = controlledPass();
    const clients: EventEmitter[] = [];
    let connectLater: (() => void) | undefined;
    const client = () => {
      const c = Object.assign(new EventEmitter(), { query: async () => ({}), release: () => {} });
      clients.push(c);
      return c;
    };
    const pool = {
      connect: () =>
        clients.length === 0
          ? Promise.resolve(client())
          : new Promise((resolve) => (connectLater = () => resolve(client()))),
    } as unknown as pg.Pool;
    const loop = loopOf({ pass: p.pass, listen: { pool, channel: 'work' } });
    await loop.start();
    await p.end();
    clients[0]!.emit('error', new Error('connection lost'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(connectLater).toBeDefined();
    const stopping = loop.stop();
    connectLater!();
    await vi.advanceTimersByTimeAsync(0);
    await stopping;
    expect(p.starts).toEqual([0]);
  });
});
