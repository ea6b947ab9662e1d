/**
 * The modules mutation testing measures (`npm run test:mutation`): where a bug costs most. Each names the code Stryker
 * mutates and the integration suites (tests/integration/<suite>) that exercise it; the unit tests always run.
 */
export interface MutationModule {
  name: string;
  mutate: string[];
  suites: string[];
  /** Integration test files of other suites that exercise the module too (readiness, third-party pulls). */
  files?: string[];
}

const PLATFORM_SUITES = ['access', 'core', 'people', 'settings'];

export const MUTATION_MODULES: MutationModule[] = [
  { name: 'auth', mutate: ['server/auth/**/*.ts'], suites: PLATFORM_SUITES },
  { name: 'tenancy', mutate: ['server/db/repository.ts', 'server/db/project-scope.ts'], suites: [...PLATFORM_SUITES, 'monitoring'] },
  { name: 'http', mutate: ['server/http/**/*.ts'], suites: [...PLATFORM_SUITES, 'monitoring'] },
  { name: 'alarms', mutate: ['server/alarms/**/*.ts'], suites: ['alarms', 'push', 'flow'] },
  {
    name: 'ingest',
    mutate: ['server/ingest/broker.ts', 'server/ingest/admission.ts', 'server/ingest/in-flight.ts', 'server/ingest/topics.ts', 'server/ingest/pipeline.ts', 'server/series/rollups.ts'],
    suites: ['iot', 'alarms'],
    // The broker's readiness (/ready), the readings pulled from third-party platforms (the pipeline's acceptStored) and
    // the admission's pacing on a clock the test moves, the rollups' waves.
    files: ['tests/integration/ops/health.test.ts', 'tests/integration/third/pull.test.ts', 'tests/unit/admission.test.ts', 'tests/unit/rollup-waves.test.ts'],
  },
];
