import { describe, expect, it } from 'vitest';
import { appPath } from './oidc.use-case.ts';

describe('the page a sign-in started by the provider lands on (target_link_uri)', () => {
  const app = 'https://app.example';
  it.each([
    ['https://app.example/classes?x=1', '/classes?x=1'],
    ['/reports#week', '/reports#week'],
    ['https://evil.example/classes', undefined],
    ['//evil.example/x', undefined],
    ['https://app.example/api/auth/logout', undefined],
    ['javascript:alert(1)', undefined],
    ['http://app.example/classes', undefined],
  ])('when the target is %s, then the app goes to %s', (target, expected) => {
    expect(appPath(target, app)).toBe(expected);
  });
});
