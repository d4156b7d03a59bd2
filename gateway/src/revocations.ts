// Sessions ended before their access tokens expire (sign-out, account disabled, refresh token
// reuse): the gateway asks identity which were revoked lately and refuses their tokens until those
// expire, so that a copied access cookie stops working within the poll interval of a sign-out.
// A sign-out through this gateway is marked at once (markRevoked); other replicas learn it within
// a moment through a request held at identity (watch), or at their next poll while identity
// cannot hold one.
import { z } from 'zod';
import { PollingLoop, type Logger } from '@checkpoint/service-kit';

const revokedAnswer = z.object({
  asOf: z.iso.datetime({ offset: true }),
  accessTokenTtlSeconds: z.number().int().positive(),
  sessions: z.array(z.object({ id: z.string().min(1), revokedAt: z.iso.datetime({ offset: true }) })),
});

/** Revocations are fetched again from this far before the last answer: transactions still committing. */
const OVERLAP_MS = 30_000;
const FETCH_TIMEOUT_MS = 2_000;
/** A held request wakes on revocations stamped up to this long before identity's last answer (still committing). */
const HELD_OVERLAP_MS = 1_000;
const WATCH_MIN_INTERVAL_MS = 250;
const WATCH_MAX_BACKOFF_MS = 30_000;
/** How long a session marked here is refused before identity has said its tokens' lifetime (the longest it allows). */
const MAX_ACCESS_TOKEN_TTL_MS = 86_400_000;

export class RevokedSessions {
  /** Session id → when the last access token it may have had expires (ms). */
  private readonly until = new Map<string, number>();
  private since: string | undefined;
  private fetchedAt = 0;
  private pending: Promise<boolean> | undefined;
  /** The loop of held requests of watch(), if watching. */
  private watching: PollingLoop | undefined;
  private stopped = false;
  /** True while a held request is waiting at identity after a good answer: the list is current. */
  private held = false;
  /** Revocations after this wake a held request: the last answer's time, less a moment. */
  private heldAfter: string | undefined;
  /** False after a failed fetch: then requests do not wait for the next one (identity may be down). */
  private reachable = true;
  /** Lifetime of an access token, as identity last said. */
  private accessTokenTtlMs = MAX_ACCESS_TOKEN_TTL_MS;

  constructor(
    private readonly identityUrl: string,
    private readonly maxAgeMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    /** Headers proving the call comes from the gateway (its service token). */
    private readonly headers: () => Promise<Record<string, string>> = async () => ({}),
    /** How long identity may hold a request (watch); 0: poll only. Watching starts with the first check. */
    private readonly watchSeconds = 0,
  ) {}

  /**
   * Whether the session was revoked. The list is fetched again when older than maxAgeMs (one
   * fetch shared by the requests waiting for it). When identity cannot answer, the last list
   * stands and requests stop waiting for it (fetched in the background until identity answers):
   * tokens still expire on their own.
   */
  async isRevoked(sessionId: string): Promise<boolean> {
    if (this.watchSeconds > 0 && !this.watching && !this.stopped) this.watch(this.watchSeconds);
    if (!this.held && this.now() - this.fetchedAt >= this.maxAgeMs) {
      const fetching = (this.pending ??= this.fetch().finally(() => (this.pending = undefined)));
      if (this.reachable) await fetching;
    }
    const until = this.until.get(sessionId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(sessionId);
    return false;
  }

  /**
   * Refuses the session's tokens from now on, without waiting for identity's list: the sign-out
   * this gateway is passing on. Entries expire with the session's last access token.
   */
  markRevoked(sessionId: string): void {
    if (!sessionId) return;
    const until = this.now() + this.accessTokenTtlMs;
    this.until.set(sessionId, Math.max(until, this.until.get(sessionId) ?? 0));
  }

  /**
   * Keeps one request held at identity (`wait`): identity answers it as soon as a session is
   * revoked, so every gateway replica learns of a sign-out within a moment, and while it is held
   * requests need not wait for a poll. While identity cannot answer, it is tried again with
   * backoff and isRevoked polls as before. stop() ends it.
   */
  watch(waitSeconds: number): void {
    if (this.watching || waitSeconds <= 0) return;
    this.watching = new PollingLoop({
      name: 'revoked sessions watch',
      pass: async () => {
        // fetch() says itself when identity cannot answer; the loop only needs to back off.
        if (!(await this.fetch(waitSeconds))) throw new Error('identity did not answer');
      },
      // At least a moment between answers (many sign-outs at once answer at once), more after failures.
      intervalMs: WATCH_MIN_INTERVAL_MS,
      backoffMs: (failures) => Math.min(WATCH_MAX_BACKOFF_MS, 500 * 2 ** failures),
    });
    void this.watching.start();
  }

  stop(): void {
    this.stopped = true;
    // Not waited for, nor aborted: an aborted held request can leave identity a connection it waits
    // for at shutdown; identity answers held requests at once when it drains.
    void this.watching?.stop();
    this.watching = undefined;
    this.held = false;
  }

  /** One fetch of the list; with `waitSeconds`, held at identity until a revocation or the wait ends. */
  private async fetch(waitSeconds = 0): Promise<boolean> {
    try {
      const url = new URL('/internal/sessions/revoked', this.identityUrl);
      if (this.since) url.searchParams.set('since', this.since);
      const held = waitSeconds > 0 && this.heldAfter !== undefined;
      if (held) {
        url.searchParams.set('wait', String(waitSeconds));
        url.searchParams.set('after', this.heldAfter!);
      }
      const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS + waitSeconds * 1000);
      // Live from the moment a held request is on its way after a good answer.
      this.held = held && this.reachable;
      const res = await fetch(url, { headers: await this.headers(), signal: timeout });
      if (!res.ok) throw new Error(`identity answered ${res.status}`);
      const answer = revokedAnswer.parse(await res.json());
      const ttlMs = answer.accessTokenTtlSeconds * 1000;
      this.accessTokenTtlMs = ttlMs;
      for (const s of answer.sessions) this.until.set(s.id, Date.parse(s.revokedAt) + ttlMs);
      this.since = new Date(Date.parse(answer.asOf) - OVERLAP_MS).toISOString();
      this.heldAfter = new Date(Date.parse(answer.asOf) - HELD_OVERLAP_MS).toISOString();
      const now = this.now();
      for (const [id, until] of this.until) if (until <= now) this.until.delete(id);
      if (!this.reachable) this.logger.info('revoked sessions: identity answers again');
      this.reachable = true;
      return true;
    } catch (err) {
      this.held = false;
      if (this.reachable) this.logger.warn({ err }, 'could not fetch revoked sessions; using the last list');
      this.reachable = false;
      return false;
    } finally {
      // Also after a failure: identity is not asked again on every request while it is down.
      this.fetchedAt = this.now();
    }
  }
}
