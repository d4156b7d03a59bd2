// Names a reader cannot see: a first or last name of only zero-width or direction-control
// characters is missing (400, the spec's "required" text), on sign-up and on an invitation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, signUpBody, startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.stop(), 60_000);

describe('invisible names', () => {
  it('when a name is only zero-width spaces or direction controls, then sign-up answers 400 naming the field', async () => {
    const res = await new Browser(h.identity.url).request(
      'POST',
      '/api/auth/simple-signup',
      signUpBody({ firstName: '\u200b\u200b\u200b', lastName: '\u202e\u2066' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ firstName: 'First name is required', lastName: 'Last name is required' });
  });
});
