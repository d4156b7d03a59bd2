// The fault test (stack mode, real Kafka, faults injected; see faults.test.ts) and its checker's
// unit tests. Kept out of the default `vitest run` projects: it starts its own Postgres, Kafka and
// service processes and takes a few minutes. `npm test -- faults` runs it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: path.resolve(here, '../..'),
  test: {
    name: 'faults',
    include: ['e2e/faults/**/*.test.ts', 'e2e/scale/**/*.test.ts'],
    testTimeout: 420_000,
    hookTimeout: 240_000,
    pool: 'forks',
  },
});
