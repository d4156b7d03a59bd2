// Scores to the LMS gradebook, LTI Assignment and Grade Services 2.0 (docs/adr/014-lti.md, "Scores
// to the LMS (AGS)"). A student's launch of a resource link that carries the AGS endpoint claim and
// a Checkpoint assessment (custom `checkpoint_assessment_id`) links the student's line item; the
// result that counts (assessment's events) is queued for every linked line item in the inbox
// transaction of its event, and a worker posts it to `{lineitem}/scores` with the registration's
// client-credentials token, retried with exponential backoff up to a bound.
import { randomUUID } from 'node:crypto';
import { sqlExecutor, type SqlExecutor } from '@checkpoint/events';
import { AppError, checkOutboundUrl, fetchOutbound, inTransaction } from '@checkpoint/service-kit';
import type pg from 'pg';
import {
  SCORE_SCOPE,
  scoresRepository as repo,
  type AgsLink,
  type CountedResult,
  type QueuedScore,
  type ScoreToSend,
} from '../data-access/scores.repository.ts';
import type { PlatformTokens } from './platform-token.ts';
import { UUID } from './ids.ts';

export const AGS_ENDPOINT_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
export const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';

/** What a launch's claims say about AGS: the line item and scopes, and the assessment the link opens. */
export interface AgsClaim {
  lineitemUrl: string;
  lineitemsUrl: string | null;
  scopes: string[];
  assessmentId: string;
}

/**
 * The AGS endpoint claim of a launch with the assessment its custom claim names (read by the
 * launch); undefined when the launch has no line item (or names no assessment): nothing to post
 * scores to.
 */
export function readAgsClaim(claims: Record<string, unknown>, assessmentId: string | undefined): AgsClaim | undefined {
  const endpoint = claims[AGS_ENDPOINT_CLAIM] as
    { lineitem?: unknown; lineitems?: unknown; scope?: unknown } | undefined;
  if (typeof endpoint?.lineitem !== 'string' || endpoint.lineitem === '' || endpoint.lineitem.length > 2000) return;
  if (typeof assessmentId !== 'string' || !UUID.test(assessmentId)) return;
  const scopes = Array.isArray(endpoint.scope)
    ? endpoint.scope
        .filter((s): s is string => typeof s === 'string')
        .slice(0, 20)
        .map((s) => s.slice(0, 255))
    : [];
  return {
    lineitemUrl: endpoint.lineitem,
    lineitemsUrl:
      typeof endpoint.lineitems === 'string' && endpoint.lineitems.length <= 2000 ? endpoint.lineitems : null,
    scopes,
    assessmentId: assessmentId.toLowerCase(),
  };
}

/** The score a counted result gives: points, and PendingManual while answers wait for review. */
export function scoreOf(r: CountedResult): ScoreToSend {
  return {
    tenantId: r.tenantId,
    assessmentId: r.assessmentId,
    classId: r.classId,
    userId: r.userId,
    resultId: r.resultId,
    scoreGiven: Math.max(0, r.earnedPoints),
    scoreMaximum: r.totalPoints,
    activityProgress: 'Completed',
    gradingProgress: r.pendingCount > 0 ? 'PendingManual' : 'FullyGraded',
    timestamp: r.scoredAt,
  };
}

/** Queues `score` for each of the student's linked line items (in the caller's transaction). */
export async function enqueueForLinks(db: SqlExecutor, score: ScoreToSend): Promise<number> {
  // A result worth no points has no score the AGS can carry (scoreMaximum must be positive).
  if (score.scoreMaximum !== null && !(score.scoreMaximum > 0)) return 0;
  const links = await repo.linksOf(db, score.tenantId, score.assessmentId, score.userId);
  for (const link of links) await repo.enqueue(db, randomUUID(), link, score);
  return links.length;
}

/** The result that counts changed: kept, and its score queued for the student's line items. */
export async function countedResultChanged(db: SqlExecutor, r: CountedResult): Promise<void> {
  await repo.setCountedResult(db, r);
  await enqueueForLinks(db, scoreOf(r));
}

/**
 * A counted result was withdrawn (the teacher reopened the attempt): no score counts until the
 * student submits again (or CountedResultChanged names another). The line item is told the
 * activity is in progress again, without a score.
 */
export async function countedResultWithdrawn(db: SqlExecutor, resultId: string, at: Date): Promise<void> {
  const r = await repo.countedResultById(db, resultId);
  if (!r) return;
  await repo.dropCountedResult(db, resultId);
  await enqueueForLinks(db, {
    ...scoreOf(r),
    resultId: null,
    scoreGiven: null,
    scoreMaximum: null,
    activityProgress: 'InProgress',
    gradingProgress: 'NotReady',
    timestamp: at,
  });
}

export interface ScoreWorkerOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  maxAttempts: number;
  /** The pause after the first failure; doubled after each one, at most maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

/** The line item's score service URL: `/scores` added to its path (its query kept), AGS §3.4. */
export function scoresUrl(lineitemUrl: string): string {
  const url = new URL(lineitemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}

/** The score as the platform reads it (application/vnd.ims.lis.v1.score+json). */
export function scoreBody(q: QueuedScore): Record<string, unknown> {
  return {
    userId: q.lmsUserId,
    ...(q.scoreGiven !== null && q.scoreMaximum !== null
      ? { scoreGiven: q.scoreGiven, scoreMaximum: q.scoreMaximum }
      : {}),
    activityProgress: q.activityProgress,
    gradingProgress: q.gradingProgress,
    timestamp: new Date(q.scoreTimestamp).toISOString(),
  };
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function scoreUseCases(pool: pg.Pool, tokens: PlatformTokens, options: ScoreWorkerOptions) {
  const db = sqlExecutor(pool);
  const retryAt = (attempts: number) =>
    attempts >= options.maxAttempts
      ? undefined
      : new Date(Date.now() + Math.min(options.maxBackoffMs, options.backoffMs * 2 ** Math.max(0, attempts - 1)));

  /** Posts one claimed score; the outcome is written in the same transaction that holds its row. */
  async function post(tx: SqlExecutor, q: QueuedScore): Promise<'sent' | 'retry' | 'failed'> {
    let target: string;
    try {
      target = scoresUrl(
        checkOutboundUrl(q.lineitemUrl, { field: 'lineitem', allowLoopback: options.allowLoopback }).toString(),
      );
      checkOutboundUrl(q.tokenUrl, { field: 'tokenUrl', allowLoopback: options.allowLoopback });
    } catch (err) {
      // An address the egress rules refuse never becomes callable by waiting.
      await repo.markFailed(tx, q.id, `Refused by the egress rules: ${message(err)}`, undefined);
      return 'failed';
    }
    const registration = { id: q.registrationId, clientId: q.clientId, tokenUrl: q.tokenUrl };
    const attempts = q.attempts + 1;
    let token: string;
    try {
      token = await tokens.accessToken(registration, [SCORE_SCOPE]);
    } catch (err) {
      const when = retryAt(attempts);
      await repo.markFailed(tx, q.id, `The platform's token URL: ${message(err)}`, when);
      return when ? 'retry' : 'failed';
    }
    try {
      await fetchOutbound(target, {
        field: 'lineitem',
        allowLoopback: options.allowLoopback,
        timeoutMs: options.timeoutMs,
        maxBytes: 64 * 1024,
        accept: 'application/json',
        post: { body: JSON.stringify(scoreBody(q)), contentType: SCORE_MEDIA_TYPE, authorization: `Bearer ${token}` },
      });
      await repo.markSent(tx, q);
      return 'sent';
    } catch (err) {
      const status = (err as { upstreamStatus?: number }).upstreamStatus;
      // The platform has a newer score of this student (its timestamp wins): nothing left to send.
      if (status === 409) {
        await repo.markSent(tx, q);
        return 'sent';
      }
      if (status === 401) tokens.forget(registration, [SCORE_SCOPE]);
      const when = retryAt(attempts);
      await repo.markFailed(tx, q.id, `The platform's score service: ${message(err)}`, when);
      return when ? 'retry' : 'failed';
    }
  }

  return {
    /**
     * A student's launch with a line item: the link recorded, and the result that already counts
     * (the student took the assessment before) queued at once.
     */
    async linkLaunch(link: Omit<AgsLink, 'assessmentId' | 'lineitemUrl' | 'lineitemsUrl' | 'scopes'>, claim: AgsClaim) {
      await inTransaction(pool, async (client) => {
        const tx = sqlExecutor(client);
        const full: AgsLink = { ...link, ...claim };
        await repo.saveLink(tx, full);
        if (!full.scopes.includes(SCORE_SCOPE)) return;
        const counted = await repo.countedResult(tx, claim.assessmentId, link.userId);
        if (counted && counted.tenantId === link.tenantId) await enqueueForLinks(tx, scoreOf(counted));
      });
    },

    /** One pass of the worker: due scores posted one at a time, at most `batch`; true when more may wait. */
    async sendDue(batch = 20): Promise<boolean> {
      for (let i = 0; i < batch; i++) {
        const done = await inTransaction(pool, async (client) => {
          const tx = sqlExecutor(client);
          const q = await repo.claimDue(tx);
          if (!q) return false;
          await post(tx, q);
          return true;
        });
        if (!done) return false;
      }
      return true;
    },

    /** An assessment's scores, for a teacher of its class (else not found). */
    async statusFor(caller: { tenantId: string; userId: string; role: string }, assessmentId: string) {
      await requireTeacher(caller, assessmentId);
      return repo.statusOf(db, caller.tenantId, assessmentId);
    },

    /** Sends the assessment's unsent scores again now (all, or one student's), for a teacher of its class. */
    async resend(caller: { tenantId: string; userId: string; role: string }, assessmentId: string, userId?: string) {
      await requireTeacher(caller, assessmentId);
      return repo.resend(db, caller.tenantId, assessmentId, userId);
    },

    /** The district's scores the platform never took (district admins). */
    failures: (tenantId: string) => repo.failuresOf(db, tenantId),
  };

  async function requireTeacher(caller: { tenantId: string; userId: string }, assessmentId: string) {
    if (!UUID.test(assessmentId) || !(await repo.teachesAssessment(db, caller.tenantId, assessmentId, caller.userId)))
      throw new AppError('not_found', 'assessment_not_found', 'No assessment of a class you teach has this id', {
        assessmentId: 'Not an assessment of a class you teach',
      });
  }
}

export type ScoreUseCases = ReturnType<typeof scoreUseCases>;
