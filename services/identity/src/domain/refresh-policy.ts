// What to do with a presented refresh token. Pure: the caller loads the row under a lock and
// applies the decision in the same transaction.

export interface RefreshTokenState {
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export interface RefreshPolicy {
  idleMs: number;
  graceMs: number;
}

export type RefreshDecision =
  /** Current token: issue a new access token and a new refresh token. */
  | { kind: 'rotate' }
  /** Rotated moments ago (parallel requests): a new access token only. */
  | { kind: 'grace' }
  /** A rotated token came back later: assume theft, end the whole session. */
  | { kind: 'reuse' }
  | { kind: 'expired' }
  | { kind: 'revoked' };

export function decideRefresh(token: RefreshTokenState, now: Date, policy: RefreshPolicy): RefreshDecision {
  if (token.revokedAt) return { kind: 'revoked' };
  if (now.getTime() >= token.expiresAt.getTime()) return { kind: 'expired' };
  if (token.rotatedAt) {
    return now.getTime() - token.rotatedAt.getTime() <= policy.graceMs ? { kind: 'grace' } : { kind: 'reuse' };
  }
  if (now.getTime() - token.lastUsedAt.getTime() > policy.idleMs) return { kind: 'expired' };
  return { kind: 'rotate' };
}
