import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In dev the gateway runs on :8080; the built app is served by the gateway itself (same origin).
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    // No source maps in production: they would publish the sources (the gateway refuses *.map too).
    sourcemap: false,
  },
});
