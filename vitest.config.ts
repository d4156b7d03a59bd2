import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'backend',
          include: [
            'packages/*/{src,test}/**/*.test.ts',
            'services/*/{src,test}/**/*.test.ts',
            'gateway/{src,test}/**/*.test.ts',
            'e2e/api/**/*.test.ts',
          ],
          globalSetup: ['packages/testkit/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      // The benchmark's own logic (percentiles, the class crowd's plan): no database, no broker.
      { test: { name: 'bench', include: ['bench/test/**/*.test.mjs'] } },
      // The build's own scripts (the accessibility conformance report).
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'] } },
      'web/vitest.config.ts',
    ],
  },
});
