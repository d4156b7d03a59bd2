import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../api/apiError';
import { JOIN_ALREADY_ENROLLED, JOIN_FAILED, JOIN_NOT_FOUND, JOIN_RESTRICTED, joinErrorMessage } from './joinErrors';

describe('joinErrorMessage', () => {
  it('when the answer is a 404 or says not found, then the class-not-found text shows', () => {
    expect(joinErrorMessage(errorFromResponse(404, 'Not Found', '{"message":"Class not found"}'))).toBe(JOIN_NOT_FOUND);
    expect(joinErrorMessage(errorFromResponse(404, 'Not Found', ''))).toBe(JOIN_NOT_FOUND);
    expect(joinErrorMessage(new Error('class not found'))).toBe(JOIN_NOT_FOUND);
    expect(JOIN_NOT_FOUND).toBe('Class not found. Please check the join code and try again.');
  });

  it('when the text says Already enrolled in any case, then the already-enrolled text shows', () => {
    expect(joinErrorMessage(errorFromResponse(409, 'Conflict', '{"message":"Already enrolled in this class"}'))).toBe(
      JOIN_ALREADY_ENROLLED,
    );
    expect(joinErrorMessage(new Error('ALREADY ENROLLED'))).toBe(JOIN_ALREADY_ENROLLED);
    expect(JOIN_ALREADY_ENROLLED).toBe("You're already enrolled in this class.");
  });

  it("when the teacher's plan is full, then the server's explanation shows", () => {
    const full = "Free Trial limit reached: this class's teacher can have up to 50 students in total.";
    expect(
      joinErrorMessage(errorFromResponse(403, 'Forbidden', JSON.stringify({ message: full, code: 'plan_limit' }))),
    ).toBe(full);
    expect(joinErrorMessage(errorFromResponse(403, 'Forbidden', '{"message":"Your role cannot do this"}'))).toBe(
      JOIN_FAILED,
    );
  });

  it("when the student's district allows its own classes only, then that is what shows", () => {
    const body = JSON.stringify({ message: JOIN_RESTRICTED, code: 'join_restricted' });
    expect(joinErrorMessage(errorFromResponse(403, 'Forbidden', body))).toBe(JOIN_RESTRICTED);
    expect(joinErrorMessage(errorFromResponse(403, 'Forbidden', '{"code":"join_restricted"}'))).toBe(JOIN_RESTRICTED);
  });

  it('when anything else fails, then the default text shows', () => {
    expect(joinErrorMessage(errorFromResponse(429, 'Too Many Requests', '{"message":"Too many join attempts"}'))).toBe(
      JOIN_FAILED,
    );
    expect(joinErrorMessage(errorFromResponse(0, '', ''))).toBe(JOIN_FAILED);
    expect(joinErrorMessage(undefined)).toBe(JOIN_FAILED);
    expect(JOIN_FAILED).toBe('Failed to join class. Please check the join code and try again.');
  });
});
