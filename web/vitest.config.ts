import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Self-contained so it works as a root project (`--project web`) and on its own (`-c web/vitest.config.ts`).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Generous on a loaded 2-core machine: the backend suites run alongside.
    testTimeout: 15_000,
  },
});
