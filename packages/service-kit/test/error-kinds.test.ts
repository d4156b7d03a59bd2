import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import {
  AppError,
  ConflictError,
  createLogger,
  ERROR_KINDS,
  errorMiddleware,
  ForbiddenError,
  HTTP_STATUS_OF,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
  type ErrorKind,
} from '../src/index.ts';

/** What the error middleware answers for an error: status, headers, and the body's JSON text. */
function answer(err: unknown) {
  const sent = { status: 0, headers: {} as Record<string, string>, body: '' };
  const res = {
    headersSent: false,
    setHeader(name: string, value: string) {
      sent.headers[name] = value;
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = JSON.stringify(body);
    },
  };
  errorMiddleware(createLogger('test', 'silent'))(err, {} as Request, res as unknown as Response, () => {});
  return sent;
}

describe('error kinds', () => {
  it('when an error of any kind reaches the middleware, then it answers the status mapped to that kind', () => {
    expect(Object.keys(HTTP_STATUS_OF).sort()).toEqual([...ERROR_KINDS].sort());
    for (const kind of ERROR_KINDS) {
      const sent = answer(new AppError(kind, `code_${kind}`, `a ${kind} error`));
      expect(sent.status, kind).toBe(HTTP_STATUS_OF[kind]);
      expect(sent.body).toBe(`{"message":"a ${kind} error","code":"code_${kind}"}`);
    }
  });

  it('when a service throws one of the kit errors, then the status and the body are what they were', () => {
    const cases: [AppError, number, string][] = [
      [
        new ValidationError('Bad', { name: 'Name is required' }),
        400,
        '{"message":"Bad","code":"validation_failed","fields":{"name":"Name is required"}}',
      ],
      [new UnauthorizedError(), 401, '{"message":"Unauthorized","code":"unauthorized"}'],
      [new ForbiddenError(), 403, '{"message":"Forbidden","code":"forbidden"}'],
      [new NotFoundError('No such thing'), 404, '{"message":"No such thing","code":"not_found"}'],
      [new ConflictError('Taken', 'email_taken'), 409, '{"message":"Taken","code":"email_taken"}'],
      [new TooManyRequestsError('Slow down', 7), 429, '{"message":"Slow down","code":"rate_limited"}'],
      [new ServiceUnavailableError('Down'), 503, '{"message":"Down","code":"unavailable"}'],
    ];
    for (const [error, status, body] of cases) {
      const sent = answer(error);
      expect([sent.status, sent.body, error.status]).toEqual([status, body, status]);
    }
    expect(answer(new TooManyRequestsError('Slow down', 7)).headers).toEqual({ 'Retry-After': '7' });
  });

  it('when another library throws its own 4xx, then its status is kept with a generic body', () => {
    const sent = answer(Object.assign(new Error('payload too large'), { status: 413 }));
    expect([sent.status, sent.body]).toEqual([413, '{"message":"Bad request","code":"bad_request"}']);
  });

  it('when a kind is not one of the kinds, then the code does not compile', () => {
    // @ts-expect-error -- 'teapot' is no ErrorKind: an error must say one of the mapped kinds.
    const teapot = new AppError('teapot', 'teapot', 'I am a teapot');
    const kind: ErrorKind = 'not_found';
    // @ts-expect-error -- no status may be given where a kind is asked.
    const numbered = new AppError(404, 'not_found', 'Not found');
    expect([teapot.kind, kind, numbered.kind]).toEqual(['teapot', 'not_found', 404]);
  });
});
