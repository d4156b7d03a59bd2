import { describe, expect, it } from 'vitest';

describe('zodConfig', () => {
  it('when zod is loaded after it, then zod runs without compiled parsers (no eval under the CSP)', async () => {
    await import('./zodConfig');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    expect(z.object({ a: z.string() }).safeParse({ a: 'x' }).success).toBe(true);
  });
});
