import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/index.ts';

describe('escapeHtml', () => {
  it('when a text holds markup and both quotes, then each becomes its entity', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('when a text is already escaped, then its ampersands are escaped again (no double meaning)', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('when a text has nothing to escape, then it is returned as it is', () => {
    expect(escapeHtml('Ms Ng, 7B — Fractions')).toBe('Ms Ng, 7B — Fractions');
  });
});
