// Build time only (vite.config.ts): the landing page as static HTML, one file per language
// (landing.html in English, landing.<code>.html for the others), which the gateway sends a visitor
// without a session at / in the browser's language, so that it shows before any script or API call.
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { i18n, type Resources } from '../../i18n/i18n';
import { LOCALE_CODES, type Locale } from '../../i18n/locales';
import { LandingPage } from './LandingPage';

// Every language's common and landing strings, bundled into the renderer.
const files = import.meta.glob<{ default: Resources[string][string] }>('../../locales/*/{common,landing}.json', {
  eager: true,
});
const resources: Resources = {};
for (const [file, strings] of Object.entries(files)) {
  const [, language, namespace] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file) ?? [];
  if (language && namespace) (resources[language] ??= {})[namespace] = strings.default;
}

/** The languages a landing page is rendered in. */
export const LANDING_LOCALES: readonly Locale[] = LOCALE_CODES;

export function renderLandingPage(locale: Locale = 'en'): string {
  i18n.configure(locale, resources);
  return renderToStaticMarkup(
    <StaticRouter location="/">
      <LandingPage />
    </StaticRouter>,
  );
}
