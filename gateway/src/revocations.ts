// Sessions ended before their access tokens expire (sign-out, account disabled, refresh token
// reuse): the gateway asks identity which were revoked lately and refuses their tokens until those
// expire, so that a copied access cookie stops working within the poll interval of a sign-out.
// A sign-out through this gateway is marked at once (markRevoked); other replicas learn it at
// their next poll.
import { z } from 'zod';
import type { Logger } from '@checkpoint/service-kit';

const revokedAnswer = z.object({
  asOf: z.iso.datetime({ offset: true }),
  accessTokenTtlSeconds: z.number().int().positive(),
  sessions: z.array(z.object({ id: z.string().min(1), revokedAt: z.iso.datetime({ offset: true }) })),
});

/** Revocations are fetched again from this far before the last answer: transactions still committing. */
const OVERLAP_MS = 30_000;
const FETCH_TIMEOUT_MS = 2_000;
/** How long a session marked here is refused before identity has said its tokens' lifetime (the longest it allows). */
const MAX_ACCESS_TOKEN_TTL_MS = 86_400_000;

export class RevokedSessions {
  /** Session id → when the last access token it may have had expires (ms). */
  private readonly until = new Map<string, number>();
  private since: string | undefined;
  private fetchedAt = 0;
  private pending: Promise<void> | undefined;
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
  ) {}

  /**
   * Whether the session was revoked. The list is fetched again when older than maxAgeMs (one
   * fetch shared by the requests waiting for it). When identity cannot answer, the last list
   * stands and requests stop waiting for it (fetched in the background until identity answers):
   * tokens still expire on their own.
   */
  async isRevoked(sessionId: string): Promise<boolean> {
    if (this.now() - this.fetchedAt >= this.maxAgeMs) {
      const fetching = (this.pending ??= this.fetch());
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

  private async fetch(): Promise<void> {
    try {
      const url = new URL('/internal/sessions/revoked', this.identityUrl);
      if (this.since) url.searchParams.set('since', this.since);
      const res = await fetch(url, { headers: await this.headers(), signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`identity answered ${res.status}`);
      const answer = revokedAnswer.parse(await res.json());
      const ttlMs = answer.accessTokenTtlSeconds * 1000;
      this.accessTokenTtlMs = ttlMs;
      for (const s of answer.sessions) this.until.set(s.id, Date.parse(s.revokedAt) + ttlMs);
      this.since = new Date(Date.parse(answer.asOf) - OVERLAP_MS).toISOString();
      const now = this.now();
      for (const [id, until] of this.until) if (until <= now) this.until.delete(id);
      if (!this.reachable) this.logger.info('revoked sessions: identity answers again');
      this.reachable = true;
    } catch (err) {
      if (this.reachable) this.logger.warn({ err }, 'could not fetch revoked sessions; using the last list');
      this.reachable = false;
    } finally {
      // Also after a failure: identity is not asked again on every request while it is down.
      this.fetchedAt = this.now();
      this.pending = undefined;
    }
  }
}
