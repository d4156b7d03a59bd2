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

  it('when it is pre-rendered in Spanish, then every text is Spanish and the links are the same', () => {
    const html = renderLandingPage('es');
    const page = new DOMParser().parseFromString(`<div id="root">${html}</div>`, 'text/html');
    expect(page.querySelector('h1')?.textContent).toBe('Evaluación formativa para cada salón de clases');
    expect(page.querySelector('#pricing-title')?.textContent).toBe('Precios');
    const links = [...page.querySelectorAll('a')].map((a) => `${a.textContent} ${a.getAttribute('href')}`);
    expect(links).toContain('Unirse a una clase /join-class');
    expect(links).toContain('Registro de maestros /auth?mode=signup&role=teacher');
    expect(page.body.textContent).toContain('El más popular');
    expect(page.body.textContent).toContain('Hasta 150 estudiantes');
    expect(page.querySelector('nav')?.getAttribute('aria-label')).toBe('Cuenta');
    // No English key or text left behind.
    expect(page.body.textContent).not.toMatch(/plans\.|features\.|Pricing|Teacher|Student|Join a Class/);
    // The English page is still English after it.
    expect(renderLandingPage('en')).toContain('Formative assessment for every classroom');
  });
});
