/**
 * Mutation testing of one module (tools/mutation/run.ts sets VIGIL_MUTATE, VIGIL_MUTATION_MODULE and
 * VIGIL_MUTATION_SUITES from tools/mutation/modules.ts; docs/testing.md "Mutation testing"). Incremental: a rerun tests
 * only the mutants whose code or covering tests changed since the module's file under tests/mutation/ was written (a
 * test is known by its name). Static mutants (code that runs only while a server starts, before any test) are
 * ignored: each would need the whole suite, a day on two cores.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const module = process.env.VIGIL_MUTATION_MODULE ?? 'all';

export default {
  // Vitest, with a mutant's tests run after the tests before them in their file (tools/mutation/ordered-runner.mjs).
  testRunner: 'vitest-ordered',
  plugins: ['@stryker-mutator/vitest-runner', './tools/mutation/ordered-runner.mjs'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: (process.env.VIGIL_MUTATE ?? '').split(',').filter(Boolean),
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `tests/mutation/${module}.json`,
  concurrency: 2,
  dryRunTimeoutMinutes: 30,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${module}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${module}/report.json` },
  // Anchored at the root (.gitignore syntax): a bare `data` also left out tests/integration/data, which a test imports.
  ignorePatterns: ['/dist', '/data', '/backups', '/reports', '/.proto', 'tests/e2e', 'tools/bench'],
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the named tsconfig's paths through TypeScript's JS API, which TypeScript 7 no longer has; the
  // rewrite only matters for references outside the project, and ours has none, so it is pointed at no file.
  tsconfigFile: 'no-tsconfig-rewrite.json',
};
