// Build time only (vite.config.ts): the landing page as static HTML for landing.html, which the
// gateway sends a visitor without a session at / so that it shows before any script or API call.
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { LandingPage } from './LandingPage';

export function renderLandingPage(): string {
  return renderToStaticMarkup(
    <StaticRouter location="/">
      <LandingPage />
    </StaticRouter>,
  );
}
