import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** How integration suites run (here and in the mutation runs, vitest.mutation.config.ts): real servers, seeded store. */
export const INTEGRATION = {
  globalSetup: ['tests/support/seeded-store.ts'],
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
} satisfies TestProjectInlineConfiguration['test'];

/** The console build (Vite) and every test suite (Vitest projects: unit, integration, e2e). */
export default defineConfig({
  plugins: [react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }), lingui()],
  server: {
    // `npm run dev` proxies the API to a running platform server (VITE_API_TARGET, default the local one).
    proxy: {
      '/api': { target: process.env.VITE_API_TARGET ?? 'http://localhost:8080', changeOrigin: true },
      '/socket.io': { target: process.env.VITE_API_TARGET ?? 'http://localhost:8080', changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1200,
  },
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['machines/**/*.test.ts', 'streams/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          ...INTEGRATION,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // One `vite build` per run; the tests serve it from the real server (startServer consoleDir).
          globalSetup: ['tests/e2e/support/build-console.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
