import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { i18n, initI18n } from '../i18n/i18n';
import { resources } from './localeResources';

// findBy*/waitFor give up after 10 s instead of 1 s: on a busy CI machine the first load of a lazy
// route's modules took 3.9 s (a wait for what must appear, not a speed check: budgets are in bench/).
configure({ asyncUtilTimeout: 10_000 });

afterEach(async () => {
  cleanup();
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});

// jsdom has no matchMedia; react-bootstrap's Offcanvas asks for breakpoints.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// Every language's strings at once, English shown (the tests assert English text; a test renders
// Spanish with i18n.changeLanguage('es')).
initI18n({ language: 'en', resources });
