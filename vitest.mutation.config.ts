import { defineConfig } from 'vitest/config';
import base, { INTEGRATION } from './vite.config';

/**
 * The tests a mutation run (tools/mutation/run.ts) runs against each mutant: the unit tests and the integration
 * suites named in VIGIL_MUTATION_SUITES (comma-separated, from tools/mutation/modules.ts) with the files of
 * VIGIL_MUTATION_FILES, or the files named in VIGIL_MUTATION_TESTS. SQLite alone (a mutant one store kills is
 * killed) and no browser or multi-process suites: Stryker runs every test in one thread and collects coverage per
 * test, which child processes and Chromium do not report.
 */
const list = (value: string | undefined) => (value ?? '').split(',').filter(Boolean);
const suites = list(process.env.VIGIL_MUTATION_SUITES);
// Files of other suites the module names too (tools/mutation/modules.ts `files`).
const files = list(process.env.VIGIL_MUTATION_FILES);
// Named files instead of the suites (`--tests=…` of tools/mutation/run.ts).
const tests = list(process.env.VIGIL_MUTATION_TESTS);

export default defineConfig({
  plugins: base.plugins,
  test: {
    env: { VIGIL_TEST_STORES: 'sqlite' },
    // A file's setup counted as covered by its tests (tools/mutation/file-coverage.ts).
    setupFiles: ['tools/mutation/file-coverage.ts'],
    // Every mutant reruns the test files that cover it: importing the server once per worker, not once per file, is
    // most of a run's time saved (each file still starts its own server on its own store).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          // It reads the server's source for raw queries, and Stryker's instrumented source is not the source.
          exclude: ['tests/unit/raw-queries.test.ts'],
          environment: 'happy-dom',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: tests.length > 0 ? tests : [...suites.map((suite) => `tests/integration/${suite}/**/*.test.ts`), ...files],
          ...INTEGRATION,
        },
      },
    ],
  },
});
