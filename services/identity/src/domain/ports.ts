// What the use cases need from outside the domain, as plain interfaces.
import type { Tx } from '../data-access/prisma.ts';
import type { UserRecord } from './user.ts';

/** Writes user events to the outbox inside the caller's transaction. */
export interface UserEventWriter {
  registered(tx: Tx, user: UserRecord): Promise<void>;
  updated(tx: Tx, user: UserRecord): Promise<void>;
}

export type LimitResult =
  /** `consumed`: the key's points used in this window, this one included. */
  { allowed: true; consumed?: number } | { allowed: false; retryAfterSeconds: number };

/** A fixed-window counter per key (rate-limiter-flexible on Postgres). */
export interface Limiter {
  consume(key: string): Promise<LimitResult>;
  /** Gives one point back (a successful sign-in does not count against a shared IP). */
  refund(key: string): Promise<void>;
}
