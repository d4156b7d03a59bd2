// Routes the integrations service calls (docs/adr/014-lti.md), outside /api: never routed by the
// gateway, and answered only to integrations' own service token (the service kit refuses calls
// without a valid one, 401 unauthenticated_peer). A verified LTI launch of a district creates the
// class of an LMS course (the first instructor launch) and brings the course's members into it.
import type { Express, NextFunction, Request, Response } from 'express';
import { AppError, peerClaims, zodToValidationError } from '@checkpoint/service-kit';
import { z } from 'zod';
import { LIMITS } from '../domain/class.ts';
import type { ClassUseCases } from '../domain/classes.use-case.ts';

const CALLER = 'integrations';

const createBody = z.strictObject({
  tenantId: z.uuid(),
  teacherId: z.uuid(),
  name: z.string().trim().min(1).max(500),
});
const memberBody = z.strictObject({
  tenantId: z.uuid(),
  userId: z.uuid(),
  role: z.enum(['student', 'teacher']),
});
const classParams = z.object({ id: z.uuid() });

function handle(run: (req: Request) => Promise<unknown>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const peer = peerClaims(req);
      if (peer?.issuer !== CALLER || peer.caller)
        throw new AppError('forbidden', 'peer_not_allowed', 'Only the integrations service calls this route');
      res.setHeader('Cache-Control', 'no-store');
      res.json(await run(req));
    } catch (err) {
      next(err);
    }
  };
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw zodToValidationError(parsed.error);
  return parsed.data;
}

export function mountInternalRoutes(app: Express, classes: ClassUseCases): void {
  app.post(
    '/internal/lti/classes',
    handle(async (req) => {
      const body = parse(createBody, req.body);
      const created = await classes.createClass(
        { tenantId: body.tenantId, teacherId: body.teacherId },
        // The LMS course's title; an LMS names no subject or period.
        { name: body.name.slice(0, LIMITS.name), subject: 'LMS course', period: null },
      );
      return { id: created.id, name: created.name };
    }),
  );
  app.post(
    '/internal/lti/classes/:id/members',
    handle(async (req) => {
      const { id } = parse(classParams, req.params);
      const body = parse(memberBody, req.body);
      return classes.joinLinked(body.tenantId, id, { userId: body.userId, role: body.role });
    }),
  );
}
