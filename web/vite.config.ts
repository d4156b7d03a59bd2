import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * landing.html (English) and landing.<code>.html (each other language, its <html lang>): the built
 * index.html with the landing page rendered into #root and no script. The gateway sends one to a
 * visitor without a session at /, in the browser's language, so the page shows at once, before any
 * JavaScript or API answer; its links lead into the app. Same head and stylesheets as the app.
 */
function prerenderLanding(): Plugin {
  return {
    name: 'checkpoint:prerender-landing',
    apply: 'build',
    async writeBundle(options) {
      const dir = options.dir ?? path.resolve(import.meta.dirname, 'dist');
      // The renderer is bundled for Node like the app is for the browser (one bundler, CommonJS
      // packages included), run once, then thrown away.
      const work = await mkdtemp(path.join(tmpdir(), 'landing-'));
      try {
        await build({
          configFile: false,
          root: import.meta.dirname,
          logLevel: 'warn',
          plugins: [react()],
          ssr: { noExternal: true },
          build: {
            ssr: 'src/features/landing/renderLandingPage.tsx',
            outDir: work,
            emptyOutDir: true,
            rolldownOptions: { output: { entryFileNames: 'render.mjs' } },
          },
        });
        const { renderLandingPage, LANDING_LOCALES } = (await import(
          pathToFileURL(path.join(work, 'render.mjs')).href
        )) as { renderLandingPage: (locale: string) => string; LANDING_LOCALES: readonly string[] };
        const index = await readFile(path.join(dir, 'index.html'), 'utf8');
        // English last: bootstrap.mjs takes landing.html's presence as "the build finished".
        for (const locale of [...LANDING_LOCALES].sort((a, b) => Number(a === 'en') - Number(b === 'en'))) {
          const file = locale === 'en' ? 'landing.html' : `landing.${locale}.html`;
          const landing = index
            .replace('<html lang="en">', `<html lang="${locale}">`)
            .replace(/\s*<script\b[^>]*>[^<]*<\/script>/g, '')
            .replace(/\s*<link\b[^>]*\brel="modulepreload"[^>]*>/g, '')
            .replace('<div id="root"></div>', `<div id="root">${renderLandingPage(locale)}</div>`);
          if (!landing.includes('id="hero-title"') || !landing.includes(`<html lang="${locale}">`))
            throw new Error(`${file}: the landing page did not render`);
          await writeFile(path.join(dir, file), landing);
        }
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The shipped build renders with preact/compat instead of react-dom (budgets: src/routes/routeTable.ts): the app's
 * code stays React code (types, hooks, react-redux, react-router, react-bootstrap), but react-dom
 * alone is 64 KB gzip of the taking page's 120, preact/compat about 11. Dev (Fast Refresh, React's
 * warnings) and the unit tests run React; the browser tests run this build.
 */
const PREACT_FOR_REACT = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

// In dev the gateway runs on :8080; the built app is served by the gateway itself (same origin).
export default defineConfig(({ command }) => ({
  plugins: [react(), prerenderLanding()],
  resolve: { alias: command === 'build' ? PREACT_FOR_REACT : [] },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    // No source maps in production: they would publish the sources (the gateway refuses *.map too).
    sourcemap: false,
    // Read by scripts/web-budgets.mjs: which chunks each route loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React, the router and Redux Toolkit, which every page of the app needs, as one chunk
          // that stays cached across releases of our own code (and gzips better than its pieces).
          // Everything else (react-bootstrap, forms, charts) goes with the pages that use it.
          groups: [
            {
              name: 'vendor',
              test: /[\\/]node_modules[\\/](preact|react|react-dom|scheduler|react-router|@reduxjs|immer|redux|redux-thunk|reselect|react-redux|use-sync-external-store|@standard-schema)[\\/]/,
            },
          ],
        },
      },
    },
  },
}));
