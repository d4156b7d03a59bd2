// Lint for the whole monorepo. Besides the usual rules it enforces the boundaries of
// docs/architecture.md: no service imports another service, nobody deep-imports a package, the web
// knows only the HTTP API.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { services } from './packages/service-registry/services.js';

// The services of packages/service-registry/services.js: a new one is covered by the rules below.
const SERVICES = services.map((s) => s.name);
/** The web's features: one folder each under web/src/features. */
const WEB_FEATURES = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webKnowsOnlyHttp = {
  group: ['@checkpoint/*', '**/services/**', '**/packages/**', '**/gateway/**'],
  message: 'The web knows only the HTTP API.',
};
/** Web files that may not import `group` (static imports) nor a path matching `regex` (import()). */
function webBoundary(files, group, regex, message) {
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [noDeepImports, webKnowsOnlyHttp, { group, message }] }],
      'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${regex}/]`, message }],
    },
  };
}
const noDeepImports = { group: ['@checkpoint/*/*'], message: 'Import a package through its public index only.' };

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      'packages/events/src/gen/**',
      '.data/**',
      '.cache/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [noDeepImports] }],
    },
  },
  ...SERVICES.map((service) => ({
    files: [`services/${service}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepImports,
            {
              group: SERVICES.filter((s) => s !== service).flatMap((s) => [
                `@checkpoint/${s}`,
                `**/services/${s}/**`,
                `../../${s}/**`,
              ]),
              message: 'A service never imports another service: use events.',
            },
            { group: ['@checkpoint/gateway', '**/gateway/**'], message: 'Services do not import the gateway.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['packages/**/*.ts', 'gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepImports,
            {
              group: SERVICES.flatMap((s) => [`@checkpoint/${s}`, `**/services/${s}/**`]),
              message: 'Packages and the gateway never import a service.',
            },
          ],
        },
      ],
    },
  },
  // The product's processes live in app/; scripts/ holds build and dev tools, e2e/ the tests. Tools
  // and tests may use the app, never each other: a test reads what it needs from app/ or a package.
  {
    files: ['scripts/**/*.{ts,mjs,js}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noDeepImports, { group: ['**/e2e/**'], message: 'Scripts do not import the tests.' }] },
      ],
    },
  },
  {
    files: ['e2e/**/*.{ts,mjs,js}', 'bench/**/*.{ts,mjs,js}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepImports,
            {
              group: ['**/scripts/*', '!**/scripts/lib', '**/scripts/*.*'],
              message: "Tests and benchmarks use app/ or a package, not the project's scripts (scripts/lib excepted).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { patterns: [noDeepImports, webKnowsOnlyHttp] }] },
  },
  // The web's layers: components/, api/, app/ and session/ are what features build on, so they never
  // import a feature (routes/ is where the features are put together into the app).
  webBoundary(
    ['web/src/{components,api,app,session}/**/*.{ts,tsx}'],
    ['**/features', '**/features/**'],
    '(^|\\/)features(\\/|$)',
    'components/, api/, app/ and session/ never import a feature: features build on them.',
  ),
  // A feature uses another feature only through its public index.ts (web/src/features/<name>/index.ts).
  ...WEB_FEATURES.map((feature) => {
    const others = WEB_FEATURES.filter((f) => f !== feature);
    return webBoundary(
      [`web/src/features/${feature}/**/*.{ts,tsx}`],
      others.flatMap((f) => [`**/${f}/**`, `!**/${f}/index`]),
      `(^|\\/)(${others.join('|')})\\/.`,
      'A feature uses another feature only through its public index (import from "../<feature>").',
    );
  }),
);
