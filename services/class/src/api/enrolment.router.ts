// Student calls: join by code or from the browse list (rate-limited per user), their classes, and
// the classes of their tenant they could join.
import { ApiRouter, clientAddress, TooManyRequestsError, type Caller } from '@checkpoint/service-kit';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { ClassUseCases } from '../domain/classes.use-case.ts';
import {
  browseSchema,
  enrolmentSchema,
  idParams,
  joinBody,
  joinCodeLookupQuery,
  joinCodeLookupSchema,
  joinResultSchema,
} from './classes.schemas.ts';
import { uuidOr404 } from './ids.ts';

const STUDENTS = ['student'] as const;
const student = (caller: Caller) => ({ tenantId: caller.tenantId, studentId: caller.userId });

/** 429 with Retry-After once the limiter's points for this key are used up. */
async function consumeOr429(limiter: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      throw new TooManyRequestsError(message, Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    }
    throw err;
  }
}

/**
 * The signed-out join page's check of a typed code, before the visitor is sent to sign in: the
 * class's name or 404, rate limited per client address (docs/security.md). A router of its own,
 * mounted before the classes router, whose GET /api/classes/:id would otherwise take the path.
 */
export function joinCodeLookupRouter(classes: ClassUseCases, lookupLimiter: RateLimiterAbstract): ApiRouter {
  return new ApiRouter().add(
    {
      method: 'get',
      path: '/api/classes/join-code',
      summary: "Whether a join code names an active class, and the class's name (signed out, before signing in)",
      access: 'public',
      query: joinCodeLookupQuery,
      response: joinCodeLookupSchema,
      errors: [404, 429],
    },
    async ({ query, req }) => {
      await consumeOr429(
        lookupLimiter,
        clientAddress(req),
        'Too many join code checks. Please wait a minute and try again.',
      );
      return classes.lookUpJoinCode(query.joinCode);
    },
  );
}

export function enrolmentRouter(classes: ClassUseCases, joinLimiter: RateLimiterAbstract): ApiRouter {
  /** One point per attempt, success or not: guessing codes costs the same as failing. */
  const limitJoins = (caller: Caller) =>
    consumeOr429(joinLimiter, caller.userId, 'Too many join attempts. Please wait a minute and try again.');

  return new ApiRouter()
    .add(
      {
        method: 'post',
        path: '/api/classes/join',
        summary:
          "Join a class by its join code (any case); 403 join_restricted when the student's district allows its own classes only",
        access: STUDENTS,
        body: joinBody,
        response: joinResultSchema,
        errors: [403, 404, 409, 429],
      },
      async ({ caller, body }) => {
        await limitJoins(caller);
        return classes.joinByCode(student(caller), body.joinCode);
      },
    )
    .add(
      {
        method: 'post',
        path: '/api/classes/:id/join-direct',
        summary: "Join a class of the student's own school or district",
        access: STUDENTS,
        params: idParams,
        response: joinResultSchema,
        errors: [404, 409, 429],
      },
      async ({ caller, params }) => {
        await limitJoins(caller);
        return classes.joinDirect(student(caller), uuidOr404(params.id));
      },
    )
    .add(
      {
        method: 'get',
        path: '/api/student/classes',
        summary: "The student's enrolments in active classes",
        access: STUDENTS,
        response: z.array(enrolmentSchema),
      },
      ({ caller }) => classes.listEnrolments(student(caller)),
    )
    .add(
      {
        method: 'get',
        path: '/api/all-classes',
        summary: "Active classes of the student's tenant not yet joined",
        access: STUDENTS,
        response: z.array(browseSchema),
      },
      ({ caller }) => classes.browse(student(caller)),
    );
}
