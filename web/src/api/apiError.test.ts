import { describe, expect, it } from 'vitest';
import { errorFromResponse, isUnauthorizedError, serverMessageOr } from './apiError';

describe('errorFromResponse', () => {
  it('when the body is JSON with a message, then the text is "status: body" and the server message is kept', () => {
    const body = JSON.stringify({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
    const error = errorFromResponse(401, 'Unauthorized', body);
    expect(error.message).toBe(`401: ${body}`);
    expect(error.serverMessage).toBe('Invalid email or password');
    expect(error.code).toBe('INVALID_CREDENTIALS');
  });

  it('when the body is empty, then the status text is used', () => {
    expect(errorFromResponse(503, 'Service Unavailable', '').message).toBe('503: Service Unavailable');
  });

  it('when the body is not JSON, then it is shown as is and there is no server message', () => {
    const error = errorFromResponse(500, 'Internal Server Error', 'boom');
    expect(error.message).toBe('500: boom');
    expect(error.serverMessage).toBeUndefined();
  });

  it('when the body carries field errors, then they are kept', () => {
    const error = errorFromResponse(
      400,
      'Bad Request',
      JSON.stringify({ message: 'Invalid', code: 'VALIDATION', fields: { email: 'Invalid email' } }),
    );
    expect(error.fields).toEqual({ email: 'Invalid email' });
  });
});

describe('isUnauthorizedError', () => {
  it('when a 401 mentions Unauthorized, then it is unauthorized', () => {
    expect(isUnauthorizedError(errorFromResponse(401, 'Unauthorized', '{"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(errorFromResponse(401, 'Unauthorized', ''))).toBe(true);
  });

  it('when a 401 is a wrong password, then it is not', () => {
    expect(isUnauthorizedError(errorFromResponse(401, 'Nope', '{"message":"Invalid email or password"}'))).toBe(false);
  });

  it('when the status is not 401, then it is not', () => {
    expect(isUnauthorizedError(errorFromResponse(403, 'Forbidden', 'Unauthorized'))).toBe(false);
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(false);
  });
});

describe('serverMessageOr', () => {
  it('when there is a server message, then it wins; else the fallback', () => {
    expect(serverMessageOr(errorFromResponse(409, 'Conflict', '{"message":"Taken"}'), 'Failed')).toBe('Taken');
    expect(serverMessageOr(errorFromResponse(500, 'Oops', ''), 'Failed')).toBe('Failed');
    expect(serverMessageOr(undefined, 'Failed')).toBe('Failed');
  });
});
