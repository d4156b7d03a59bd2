// The container journey (e2e/containers): builds the image and runs every service and the gateway
// as containers with podman. Kept out of the default `vitest run` projects: it needs podman, runc
// and debootstrap (installed from Debian when missing) and minutes for a cold build.
// `npm test -- containers` runs it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: path.resolve(here, '../..'),
  test: {
    name: 'containers',
    include: ['e2e/containers/**/*.test.ts'],
    // One file, its tests in order: each step uses what the one before started.
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 300_000,
    hookTimeout: 1_800_000,
    pool: 'forks',
  },
});
