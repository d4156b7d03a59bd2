// The calls a verified launch makes to identity and class (their internal routes, outside /api,
// answered only to this service's token: docs/adr/007, docs/adr/014-lti.md). HTTP only: what to
// ask and when is the launch use case's.
import { AppError, ServiceUnavailableError, type ServiceTokens } from '@checkpoint/service-kit';

export type CheckpointRole = 'student' | 'teacher' | 'admin';

export interface LmsUser {
  tenantId: string;
  issuer: string;
  clientId: string;
  subject: string;
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  role: CheckpointRole;
}

export interface SignedInUser {
  id: string;
  role: CheckpointRole;
  tenantId: string;
  firstName: string;
  lastName: string;
}

export interface Handoff {
  handoffToken: string;
  handoffUrl: string;
  handoffExpiresAt: string;
}

export interface Peers {
  /** Finds or creates the LMS user's account of the district (identity). */
  signIn(user: LmsUser): Promise<{ user: SignedInUser; outcome: string }>;
  /** A one-time sign-in of that account, redeemed by the browser (identity). */
  handoff(input: { tenantId: string; userId: string; returnTo: string }): Promise<Handoff>;
  /** A new class of the district taught by `teacherId` (class). */
  createClass(input: { tenantId: string; teacherId: string; name: string }): Promise<{ id: string }>;
  /** The member joins the class (a student enrolled, a teacher co-teaching) (class). */
  joinClass(input: {
    tenantId: string;
    classId: string;
    userId: string;
    role: 'student' | 'teacher';
  }): Promise<{ joined: boolean }>;
  /** Whether the user teaches (owns or co-teaches) the class of the tenant: not_found when not (class). */
  teachesClass(input: { tenantId: string; classId: string; userId: string }): Promise<boolean>;
}

export function peersClient(options: {
  tokens: ServiceTokens;
  identityUrl: string | undefined;
  classUrl: string | undefined;
  timeoutMs: number;
}): Peers {
  async function post<T>(service: 'identity' | 'class', base: string | undefined, path: string, body: unknown) {
    if (!base)
      throw new AppError(
        'unavailable',
        'lti_sign_in_unavailable',
        `Signing in from the LMS is not configured (${service === 'identity' ? 'IDENTITY_URL' : 'CLASS_URL'} is unset)`,
      );
    let res: Response;
    try {
      res = await fetch(new URL(path, base), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await options.tokens.headers(service)) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      throw new ServiceUnavailableError(`The ${service} service did not answer: ${(err as Error).message}`);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.ok) return parsed as T;
    const answer = (parsed ?? {}) as { code?: unknown; message?: unknown };
    const message = typeof answer.message === 'string' ? answer.message : `${service} answered ${res.status}`;
    const code = typeof answer.code === 'string' ? answer.code : 'peer_failed';
    // A refusal about the person (disabled account, another district's address…) keeps its meaning.
    if (res.status === 403) throw new AppError('forbidden', code, message);
    if (res.status === 404) throw new AppError('not_found', code, message);
    // The peer is down or in an outage (its database): a 503 with Retry-After (the peer's, else 5 s).
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new ServiceUnavailableError(
      `${service}: ${message}`,
      Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600 ? retryAfter : undefined,
    );
  }
  return {
    signIn: (user) => post('identity', options.identityUrl, '/internal/lti/sign-in', user),
    handoff: (input) => post('identity', options.identityUrl, '/internal/lti/handoffs', input),
    createClass: (input) => post('class', options.classUrl, '/internal/lti/classes', input),
    async joinClass({ classId, ...member }) {
      const answer = await post<{ joined?: unknown }>(
        'class',
        options.classUrl,
        `/internal/lti/classes/${encodeURIComponent(classId)}/members`,
        member,
      );
      return { joined: answer?.joined === true };
    },
    async teachesClass({ classId, ...who }) {
      const answer = await post<{ teaches?: unknown }>(
        'class',
        options.classUrl,
        `/internal/lti/classes/${encodeURIComponent(classId)}/teacher-check`,
        who,
      );
      return answer?.teaches === true;
    },
  };
}
