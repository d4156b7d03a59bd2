import { describe, expect, it } from 'vitest';
import { renderLandingPage } from './renderLandingPage';

describe('renderLandingPage', () => {
  it('when the landing page is pre-rendered, then it is plain HTML with its links and pricing', () => {
    const html = renderLandingPage();
    const page = new DOMParser().parseFromString(`<div id="root">${html}</div>`, 'text/html');
    const hrefs = (name: string) =>
      [...page.querySelectorAll('a')].filter((a) => a.textContent === name).map((a) => a.getAttribute('href'));
    expect(page.querySelector('h1')?.textContent).toBe('Formative assessment for every classroom');
    expect(page.querySelector('#pricing-title')?.textContent).toBe('Pricing');
    expect(hrefs('Join a Class')).toEqual(['/join-class', '/join-class']);
    expect(hrefs('Teacher Login')).toEqual(['/auth?mode=login', '/auth?mode=login']);
    expect(hrefs('Teacher Signup')).toEqual(['/auth?mode=signup&role=teacher']);
    // A student with an account signs in from the landing page too, next to Teacher Login.
    expect(hrefs('Student Login')).toEqual(['/auth?mode=login', '/auth?mode=login']);
    expect(page.body.textContent).toContain('Most Popular');
  });

  it('when the landing page is pre-rendered, then no style attribute is left for the CSP to refuse', () => {
    expect(renderLandingPage()).not.toMatch(/\sstyle=/);
  });
});
