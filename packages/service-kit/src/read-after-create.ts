// Read-after-create across services. Classes and assessments get time-ordered ids (UUIDv7), so a
// service whose local copy of one is fed by events can tell "created a moment ago, my copy is not
// there yet" from "no such thing": only the first waits, boundedly, for its consumer to catch up.
import { randomFillSync } from 'node:crypto';
import type { SubscribeOptions } from '@checkpoint/events';

/**
 * A fresh UUIDv7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, then 74 random bits. Still a valid
 * UUID for every check that takes one; ids made in the same millisecond are unordered among
 * themselves, which nothing here needs.
 */
export function uuidv7(now: number = Date.now()): string {
  const b = randomFillSync(new Uint8Array(16));
  let ms = Math.max(0, Math.floor(now));
  for (let i = 5; i >= 0; i--) {
    b[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The creation time (Unix ms) of a UUIDv7; undefined for any other string. */
export function uuidv7Time(id: string): number | undefined {
  const m = V7.exec(id);
  return m ? parseInt(m[1]! + m[2]!, 16) : undefined;
}

/**
 * Runs `lookup` (which resolves to something falsy when it finds nothing) and, when it finds
 * nothing for an id created a moment ago, runs it again as the service's copies catch up, for a
 * bounded time. Resolves to the last lookup's value.
 */
export type AwaitRecent = <T>(id: string, lookup: () => Promise<T>) => Promise<T>;

/** Never waits: for tests of use cases and for callers that answer lists. */
export const lookupNow: AwaitRecent = (_id, lookup) => lookup();

export interface RecentReadsOptions {
  /** An id created less than this long ago (by its v7 timestamp) is waited for; 0 never waits. */
  windowMs: number;
  /** Bound on one wait. */
  maxWaitMs: number;
  /** Waits in progress at once in this process; beyond it a miss answers at once. */
  maxWaiters: number;
  /** How far in the future (another host's clock) an id's time may be and still count as recent. Default 2 s. */
  skewMs?: number;
  /** First re-check without a wake-up (replicas: another process may consume the event), doubled up to `maxPollMs`. Default 25. */
  pollMs?: number;
  /** Default 1000. */
  maxPollMs?: number;
  now?: () => number;
}

/** Recent ids whose events this process committed, kept for the window (and at most this many). */
const MAX_SEEN = 100_000;

/**
 * One per service process. Its consumers call `notify` with the keys (aggregate ids) of what they
 * committed, which wakes the waits for those ids at once; a wait also re-checks on a backoff timer,
 * for events that another replica consumed. An event's key is its aggregate's id and the first
 * event of an aggregate is its creation, so once this process committed one for an id, the copy is
 * there: a lookup that still misses it is "not yours" and answers at once.
 */
export class RecentReads {
  private readonly waits = new Map<string, Set<() => void>>();
  /** id → when this process committed an event of it (insertion order = time order). */
  private readonly seen = new Map<string, { seq: number; at: number }>();
  /** Counts notify calls: a commit numbered below a lookup's start happened before the lookup. */
  private seq = 0;
  private active = 0;
  private readonly skewMs: number;
  private readonly pollMs: number;
  private readonly maxPollMs: number;
  private readonly now: () => number;

  constructor(private readonly options: RecentReadsOptions) {
    this.skewMs = options.skewMs ?? 2_000;
    this.pollMs = options.pollMs ?? 25;
    this.maxPollMs = options.maxPollMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** Waits in progress. */
  get waiting(): number {
    return this.active;
  }

  /** Whether a miss on `id` is worth waiting for: a v7 id made within the window. */
  isRecent(id: string): boolean {
    const created = uuidv7Time(id);
    if (created === undefined) return false;
    const age = this.now() - created;
    return age < this.options.windowMs && age >= -this.skewMs;
  }

  /** Wakes the waits for these ids (call after the transaction that stored them committed). */
  notify(ids: Iterable<string>): void {
    const now = this.now();
    const seq = ++this.seq;
    for (const id of ids) {
      const key = id.toLowerCase();
      if (this.isRecent(key)) {
        this.seen.delete(key);
        this.seen.set(key, { seq, at: now });
      }
      const wakes = this.waits.get(key);
      if (wakes) for (const wake of wakes) wake();
    }
    for (const [key, { at }] of this.seen) {
      if (now - at < this.options.windowMs + this.skewMs && this.seen.size <= MAX_SEEN) break;
      this.seen.delete(key);
    }
  }

  /** The subscription, calling `notify` with the messages' keys once its handler committed them. */
  notifying(sub: SubscribeOptions): SubscribeOptions {
    const { handler, batchHandler } = sub;
    return {
      ...sub,
      handler: async (message) => {
        await handler(message);
        this.notify([message.key]);
      },
      ...(batchHandler && {
        batchHandler: async (messages) => {
          await batchHandler(messages);
          this.notify(messages.map((m) => m.key));
        },
      }),
    };
  }

  /** Whether this process had committed an event of `key` before a lookup that began at `seq`. */
  private storedBefore(key: string, seq: number): boolean {
    const seen = this.seen.get(key);
    return seen !== undefined && seen.seq <= seq;
  }

  readonly awaitRecent: AwaitRecent = async <T>(id: string, lookup: () => Promise<T>): Promise<T> => {
    const key = id.toLowerCase();
    let started = this.seq;
    let found = await lookup();
    if (
      found ||
      this.options.maxWaitMs <= 0 ||
      !this.isRecent(key) ||
      this.storedBefore(key, started) ||
      this.active >= this.options.maxWaiters
    )
      return found;
    this.active++;
    // Committed while that lookup ran: look again at once.
    let signalled = this.seen.has(key);
    let wakeNow: (() => void) | undefined;
    const wake = () => {
      signalled = true;
      wakeNow?.();
    };
    let wakes = this.waits.get(key);
    if (!wakes) this.waits.set(key, (wakes = new Set()));
    wakes.add(wake);
    try {
      const deadline = this.now() + this.options.maxWaitMs;
      for (let delay = this.pollMs; ; delay = Math.min(delay * 2, this.maxPollMs)) {
        const left = deadline - this.now();
        if (left <= 0) return found;
        if (!signalled)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(delay, left));
            wakeNow = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        wakeNow = undefined;
        signalled = false;
        started = this.seq;
        found = await lookup();
        if (found || this.storedBefore(key, started)) return found;
      }
    } finally {
      this.active--;
      wakes.delete(wake);
      if (wakes.size === 0 && this.waits.get(key) === wakes) this.waits.delete(key);
    }
  };
}
