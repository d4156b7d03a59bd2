// Names and Role Provisioning Services 2.0 (docs/adr/014-lti.md, "Rosters from the LMS"): an
// instructor's launch that carries the NRPS claim records the course's membership URL with the
// link of the course to its class; the course's learners are then brought into that class — after
// the launch (in the background) and when a teacher of the class asks. Every page of the
// membership container is read first (bearer token of the registration's platform, egress rules,
// bounded), then each Learner is signed up through identity (the launch's find-or-create of that
// district) and enrolled through class; both are idempotent, so a sync stopped halfway is finished
// by the next one. Only the registration's district and the class linked to that course are ever
// touched. Nobody is removed from the class (see the ADR).
import { AppError, checkOutboundUrl, fetchOutboundResponse, NotFoundError } from '@checkpoint/service-kit';
import type { Peers } from '../data-access/peers.client.ts';
import type { StoredRegistration } from '../data-access/registrations.repository.ts';
import type { RosterLink, RostersRepository, RosterSyncOutcome } from '../data-access/rosters.repository.ts';
import { checkpointRole, type Landing, type VerifiedLaunch } from './lti.use-case.ts';
import { NRPS_MEDIA_TYPE, NRPS_SCOPE, nextLink } from './nrps.ts';
import type { PlatformTokens } from './platform-token.ts';

/** A background sync after a launch is skipped when the course was synced well this recently. */
export const BACKGROUND_SYNC_INTERVAL_MS = 5 * 60_000;

/** Bounds of one sync: pages read, members taken, bytes of a page. */
export const ROSTER_LIMITS = { pages: 50, members: 5_000, pageBytes: 2 * 1024 * 1024 } as const;

export type SkipReason =
  'inactive' | 'deleted' | 'not_a_learner' | 'no_user_id' | 'account_not_student' | 'account_refused' | 'class_refused';

export interface RosterMember {
  lmsUserId: string;
  name: string | null;
}
export interface RosterSyncResult {
  classId: string;
  contextId: string;
  contextTitle: string | null;
  syncedAt: string;
  added: (RosterMember & { userId: string; accountCreated: boolean })[];
  kept: (RosterMember & { userId: string })[];
  skipped: (RosterMember & { reason: SkipReason; detail: string })[];
}

interface PlatformMember {
  user_id?: unknown;
  status?: unknown;
  roles?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  email?: unknown;
}

const str = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined;

/** A refusal of the sync as a whole (nothing of the roster was written when it is the platform's). */
class RosterSyncRefused extends AppError {}

export function rosterSyncUseCases(deps: {
  rosters: RostersRepository;
  registrations: { byId(id: string): Promise<StoredRegistration | undefined> };
  peers: Peers;
  tokens: PlatformTokens;
  allowLoopback: boolean;
  timeoutMs: number;
  logger?: { warn(obj: object, msg: string): void };
}) {
  const { rosters, peers } = deps;
  const platformError = (message: string) =>
    new RosterSyncRefused('unavailable', 'lti_platform_error', message, { contextMembershipsUrl: message });

  /** Every page of the course's membership container: all read before anything is written. */
  async function readRoster(reg: StoredRegistration, url: string): Promise<PlatformMember[]> {
    try {
      checkOutboundUrl(url, { field: 'contextMembershipsUrl', allowLoopback: deps.allowLoopback });
    } catch (err) {
      throw new RosterSyncRefused(
        'unprocessable',
        'lti_memberships_url_refused',
        `The LMS’s membership URL is outside what Checkpoint may call: ${(err as Error).message}`,
        { contextMembershipsUrl: (err as Error).message },
      );
    }
    const members: PlatformMember[] = [];
    const seen = new Set<string>();
    let next: string | undefined = url;
    for (let page = 0; next !== undefined; page++) {
      if (page >= ROSTER_LIMITS.pages)
        throw platformError(`The course’s roster has more than ${ROSTER_LIMITS.pages} pages: not synced`);
      if (seen.has(next)) throw platformError('The LMS’s roster pages lead back to a page already read');
      seen.add(next);
      // Every page is checked by the same rules (and the token is never sent where a redirect points).
      let answer: Awaited<ReturnType<typeof fetchOutboundResponse>>;
      try {
        const token = await deps.tokens.accessToken(reg, [NRPS_SCOPE]);
        answer = await fetchOutboundResponse(next, {
          field: 'contextMembershipsUrl',
          allowLoopback: deps.allowLoopback,
          maxBytes: ROSTER_LIMITS.pageBytes,
          timeoutMs: deps.timeoutMs,
          accept: NRPS_MEDIA_TYPE,
          authorization: `Bearer ${token}`,
        });
      } catch (err) {
        if (err instanceof AppError && err.code === 'lti_platform_token') throw err;
        if (err instanceof AppError && /answered 401/.test(err.message)) deps.tokens.forget(reg, [NRPS_SCOPE]);
        if (err instanceof AppError)
          throw platformError(`The LMS’s membership service failed: ${err.message.replace(/^The address /, 'it ')}`);
        throw err;
      }
      let container: { members?: unknown };
      try {
        container = JSON.parse(answer.body.toString('utf8')) as typeof container;
      } catch {
        throw platformError('The LMS’s membership answer is not JSON');
      }
      if (!Array.isArray(container?.members)) throw platformError('The LMS’s membership answer holds no members list');
      for (const m of container.members as unknown[]) {
        if (members.length >= ROSTER_LIMITS.members)
          throw platformError(`The course has more than ${ROSTER_LIMITS.members} members: not synced`);
        if (m && typeof m === 'object') members.push(m as PlatformMember);
      }
      const link = nextLink(answer.headers.link);
      if (link === undefined) break;
      let following: URL;
      try {
        following = new URL(link, next);
      } catch {
        throw platformError('The LMS’s next roster page is not a URL');
      }
      // The bearer token goes to the membership URL's origin only.
      if (following.origin !== new URL(url).origin)
        throw platformError('The LMS’s next roster page is on another host: not followed');
      next = following.toString();
    }
    return members;
  }

  /** Brings the course's learners into its class; the outcome (counts) is kept with the link. */
  async function syncLink(link: RosterLink): Promise<RosterSyncResult> {
    const reg = await deps.registrations.byId(link.registrationId);
    // The registration decides the district: a link of another tenant is never synced.
    if (!reg || reg.tenantId !== link.tenantId) throw new NotFoundError('This course’s LMS registration was removed');
    if (!link.membershipsUrl)
      throw new AppError(
        'conflict',
        'lti_nrps_unavailable',
        'The LMS has not offered this course’s roster (Names and Role Provisioning) in an instructor’s launch',
        { classId: 'No roster service for this class’s LMS course' },
      );
    const result: RosterSyncResult = {
      classId: link.classId,
      contextId: link.contextId,
      contextTitle: link.contextTitle,
      syncedAt: new Date().toISOString(),
      added: [],
      kept: [],
      skipped: [],
    };
    try {
      const members = await readRoster(reg, link.membershipsUrl);
      const done = new Set<string>();
      for (const m of members) {
        const lmsUserId = str(m.user_id, 255);
        const name =
          str(m.name, 400) ?? ([str(m.given_name, 200), str(m.family_name, 200)].filter(Boolean).join(' ') || null);
        if (!lmsUserId) {
          result.skipped.push({ lmsUserId: '', name, reason: 'no_user_id', detail: 'The LMS named no user id' });
          continue;
        }
        if (done.has(lmsUserId)) continue;
        done.add(lmsUserId);
        const who = { lmsUserId, name };
        const status = typeof m.status === 'string' ? m.status : 'Active';
        if (status === 'Inactive' || status === 'Deleted') {
          result.skipped.push({
            ...who,
            reason: status === 'Inactive' ? 'inactive' : 'deleted',
            detail: `The LMS lists this member as ${status}`,
          });
          continue;
        }
        const roles = Array.isArray(m.roles) ? m.roles.filter((r): r is string => typeof r === 'string') : [];
        if (checkpointRole(roles, false) !== 'student') {
          result.skipped.push({
            ...who,
            reason: 'not_a_learner',
            detail: 'Not a learner of the course: instructors reach the class at their own launch',
          });
          continue;
        }
        let user: { id: string; role: string };
        let outcome: string;
        try {
          ({ user, outcome } = await peers.signIn({
            tenantId: reg.tenantId,
            issuer: reg.issuer,
            clientId: reg.clientId,
            subject: lmsUserId,
            email: str(m.email, 254),
            firstName: str(m.given_name, 200) ?? name?.split(' ')[0],
            lastName: str(m.family_name, 200) ?? (name?.split(' ').slice(1).join(' ') || undefined),
            role: 'student',
          }));
        } catch (err) {
          // A refusal about the person (disabled, another district's address, unverified): skipped.
          if (err instanceof AppError && err.kind === 'forbidden') {
            result.skipped.push({ ...who, reason: 'account_refused', detail: `${err.code}: ${err.message}` });
            continue;
          }
          throw err;
        }
        // An existing account keeps its Checkpoint role: a teacher's account is not made a student.
        if (user.role !== 'student') {
          result.skipped.push({
            ...who,
            reason: 'account_not_student',
            detail: `The Checkpoint account of this member is a ${user.role}`,
          });
          continue;
        }
        try {
          const { joined } = await peers.joinClass({
            tenantId: reg.tenantId,
            classId: link.classId,
            userId: user.id,
            role: 'student',
          });
          if (joined) result.added.push({ ...who, userId: user.id, accountCreated: outcome === 'created' });
          else result.kept.push({ ...who, userId: user.id });
        } catch (err) {
          if (err instanceof AppError && err.kind === 'not_found')
            throw new AppError(
              'not_found',
              'lti_class_gone',
              'The class linked to this course is archived or deleted',
              {
                classId: 'Archived or deleted',
              },
            );
          if (err instanceof AppError && err.kind === 'forbidden') {
            result.skipped.push({ ...who, reason: 'class_refused', detail: `${err.code}: ${err.message}` });
            continue;
          }
          throw err;
        }
      }
    } catch (err) {
      await rosters.recordSync(link.registrationId, link.contextId, {
        ok: false,
        added: result.added.length,
        kept: result.kept.length,
        skipped: result.skipped.length,
        error: err instanceof AppError ? err.code : 'internal',
      });
      throw err;
    }
    await rosters.recordSync(link.registrationId, link.contextId, {
      ok: true,
      added: result.added.length,
      kept: result.kept.length,
      skipped: result.skipped.length,
    });
    return result;
  }

  /** The courses linked to the class, for one of its teachers only (else not_found: another's class says nothing). */
  async function linksOfTeacher(caller: { tenantId: string; userId: string }, classId: string) {
    try {
      await peers.teachesClass({ tenantId: caller.tenantId, classId, userId: caller.userId });
    } catch (err) {
      if (err instanceof AppError && (err.kind === 'not_found' || err.kind === 'forbidden'))
        throw new NotFoundError('No such class of yours');
      throw err;
    }
    return rosters.byClass(caller.tenantId, classId);
  }

  /** Records the membership URL and syncs: never throws (the outcome is kept with the link). */
  async function syncInBackground(registrationId: string, contextId: string, membershipsUrl: string): Promise<void> {
    try {
      await rosters.setMembershipsUrl(registrationId, contextId, membershipsUrl);
      const link = await rosters.byContext(registrationId, contextId);
      if (!link) return;
      // Instructors launch often: a course synced well a moment ago is not read again (the
      // teacher's button syncs at once).
      const last = link.rosterSyncedAt ? Date.parse(link.rosterSyncedAt) : 0;
      if (link.rosterSyncOutcome?.ok && Date.now() - last < BACKGROUND_SYNC_INTERVAL_MS) return;
      await syncLink(link);
    } catch (err) {
      deps.logger?.warn(
        { err: err instanceof AppError ? { code: err.code, message: err.message } : err, registrationId },
        'LTI roster sync after launch failed',
      );
    }
  }

  return {
    /**
     * After an instructor's launch that reached the course's class with an NRPS claim: keeps the
     * membership URL with the link and syncs the roster, in the background (the launch does not
     * wait; this never throws: the outcome is kept with the link).
     */
    afterInstructorLaunch(l: VerifiedLaunch, landing: Landing): Promise<void> | undefined {
      if (!l.membershipsUrl || l.contextId === null || !landing.classId || landing.role === 'student') return undefined;
      return syncInBackground(l.registrationId, l.contextId, l.membershipsUrl);
    },

    syncInBackground,

    /** What the class page shows: whether the class is linked to an LMS course with a roster service, and the last sync. */
    async status(caller: { tenantId: string; userId: string }, classId: string) {
      const links = await linksOfTeacher(caller, classId);
      return {
        classId,
        courses: links.map((l) => ({
          contextId: l.contextId,
          contextTitle: l.contextTitle,
          rosterAvailable: l.membershipsUrl !== null,
          lastSyncedAt: l.rosterSyncedAt,
          lastOutcome: l.rosterSyncOutcome,
        })),
      };
    },

    /** A teacher's sync of the class's LMS course(s) now: what was added, kept and skipped, and why. */
    async syncForTeacher(caller: { tenantId: string; userId: string }, classId: string) {
      const links = await linksOfTeacher(caller, classId);
      if (links.length === 0)
        throw new AppError('conflict', 'lti_not_linked', 'This class is not linked to an LMS course', {
          classId: 'Not linked to an LMS course',
        });
      const withRoster = links.filter((l) => l.membershipsUrl !== null);
      if (withRoster.length === 0) return { courses: [await syncLink(links[0]!)] };
      const courses: RosterSyncResult[] = [];
      for (const link of withRoster) courses.push(await syncLink(link));
      return { courses };
    },
  };
}

export type RosterSyncUseCases = ReturnType<typeof rosterSyncUseCases>;
export type { RosterSyncOutcome };
