// Starting, refreshing and ending sessions (access JWT + rotating refresh token).
import type { SessionsRepository } from '../data-access/sessions.repository.ts';
import type { UsersRepository } from '../data-access/users.repository.ts';
import type { AccessTokenSigner } from './access-token.ts';
import { randomToken, sha256Hex } from './tokens.ts';
import type { UserRecord, UserRole } from './user.ts';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  graceMs: number;
}

export interface SessionDeps {
  sessions: SessionsRepository;
  users: UsersRepository;
  signer: AccessTokenSigner;
  policy: SessionPolicy;
}

export interface IssuedSession {
  accessToken: string;
  accessTokenMaxAgeSeconds: number;
  /** Absent when a just-rotated token was presented again within the grace window. */
  refreshToken?: string;
  /** End of the session (absolute timeout); the refresh and CSRF cookies live until then. */
  refreshExpiresAt: Date;
  csrf: string;
  sessionId: string;
  user: { id: string; role: UserRole; tenantId: string };
}

/** Every sign-in starts a new session family with new tokens. */
export async function startSession(deps: SessionDeps, user: UserRecord, now = new Date()): Promise<IssuedSession> {
  const refreshToken = randomToken();
  const csrf = randomToken();
  const expiresAt = new Date(now.getTime() + deps.policy.absoluteMs);
  const sessionId = await deps.sessions.create({
    userId: user.id,
    tokenHash: sha256Hex(refreshToken),
    csrf,
    expiresAt,
  });
  const claims = { userId: user.id, role: user.role, tenantId: user.tenantId, sessionId, csrf };
  return {
    accessToken: await deps.signer.sign(claims, now),
    accessTokenMaxAgeSeconds: deps.signer.ttlSeconds,
    refreshToken,
    refreshExpiresAt: expiresAt,
    csrf,
    sessionId,
    user: { id: user.id, role: user.role, tenantId: user.tenantId },
  };
}

/** Exchanges a refresh token; undefined means "sign in again" (401). */
export async function refreshSession(
  deps: SessionDeps,
  refreshToken: string,
  now = new Date(),
): Promise<IssuedSession | undefined> {
  const next = randomToken();
  const outcome = await deps.sessions.refresh(sha256Hex(refreshToken), sha256Hex(next), deps.policy, now);
  if (outcome.decision !== 'rotate' && outcome.decision !== 'grace') return undefined;
  const user = outcome.userId ? await deps.users.findById(outcome.userId) : undefined;
  if (!user || user.disabledAt || !outcome.familyId || !outcome.csrf || !outcome.expiresAt) return undefined;
  const claims = {
    userId: user.id,
    role: user.role,
    tenantId: user.tenantId,
    sessionId: outcome.familyId,
    csrf: outcome.csrf,
  };
  return {
    accessToken: await deps.signer.sign(claims, now),
    accessTokenMaxAgeSeconds: deps.signer.ttlSeconds,
    ...(outcome.decision === 'rotate' ? { refreshToken: next } : {}),
    refreshExpiresAt: outcome.expiresAt,
    csrf: outcome.csrf,
    sessionId: outcome.familyId,
    user: { id: user.id, role: user.role, tenantId: user.tenantId },
  };
}

/** Ends the session given by its id or by one of its refresh tokens. */
export async function endSession(
  deps: Pick<SessionDeps, 'sessions'>,
  by: { sessionId?: string; refreshToken?: string },
): Promise<void> {
  const familyId =
    by.sessionId || (by.refreshToken ? await deps.sessions.familyOfToken(sha256Hex(by.refreshToken)) : undefined);
  if (familyId) await deps.sessions.revokeFamily(familyId);
}
