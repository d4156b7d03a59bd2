// Student calls: join by code or from the browse list (rate-limited per user), their classes, and
// the classes of their tenant they could join.
import { ApiRouter, TooManyRequestsError, type Caller } from '@checkpoint/service-kit';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { ClassUseCases } from '../domain/classes.use-cases.ts';
import { browseSchema, enrolmentSchema, idParams, joinBody, joinResultSchema } from './classes.schemas.ts';
import { uuidOr404 } from './ids.ts';

const STUDENTS = ['student'] as const;
const student = (caller: Caller) => ({ tenantId: caller.tenantId, studentId: caller.userId });

export function enrolmentRouter(classes: ClassUseCases, joinLimiter: RateLimiterAbstract): ApiRouter {
  /** One point per attempt, success or not: guessing codes costs the same as failing. */
  async function limitJoins(caller: Caller): Promise<void> {
    try {
      await joinLimiter.consume(caller.userId);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        throw new TooManyRequestsError(
          'Too many join attempts. Please wait a minute and try again.',
          Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
        );
      }
      throw err;
    }
  }

  return new ApiRouter()
    .add(
      {
        method: 'post',
        path: '/api/classes/join',
        summary: 'Join a class by its join code (any case)',
        access: STUDENTS,
        body: joinBody,
        response: joinResultSchema,
        errors: [404, 409, 429],
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
