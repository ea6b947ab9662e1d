import { afterAll, beforeAll, inject } from 'vitest';

/**
 * Vitest setup of mutation runs (vitest.mutation.config.ts): in Stryker's dry run, code reached while a test file
 * sets up (its `beforeAll`: the server it starts, the broker it opens) or between its tests is counted as covered by
 * every test of that file.
 *
 * Stryker counts a hit as a test's only inside the test; outside any test it is "static". A mutant hit both ways is
 * run against the tests that hit it inside (ignoreStatic), so a mutant of what a file's `beforeAll` built — an event
 * handler the broker registers as it starts, a session sweep's interval — ran against whichever tests elsewhere
 * happened to start a server inside a test, and never against the file whose tests observe it. It survived tests it
 * never met.
 */

/** The part of Stryker's global namespace its instrumented code counts hits in. */
interface Coverage {
  static: Record<string, number>;
  perTest: Record<string, Record<string, number>>;
}
interface Task {
  type: string;
  mode: string;
  name: string;
  suite?: Task;
  file?: { filepath: string };
  tasks?: Task[];
}

// Stryker provides these to every run (its own setup file reads them the same way); outside Stryker there is no setup.
const namespace = inject('globalNamespace' as never) as string | undefined;
const dryRun = namespace !== undefined && (inject('mode' as never) as string) !== 'mutant';

/** Stryker's test id: `<file>#<suite names and test name>` (stryker-setup.js `toRawTestId`). */
function testId(test: Task): string {
  const names = [test.name];
  for (let suite = test.suite; suite; suite = suite.suite) names.unshift(suite.name);
  return `${test.file?.filepath ?? 'unknown.js'}#${names.join(' ').trim()}`;
}

function testsOf(task: Task): Task[] {
  if (task.type === 'test') return task.mode === 'run' ? [task] : [];
  return (task.tasks ?? []).flatMap(testsOf);
}

if (dryRun) {
  const coverage = () => (globalThis as unknown as Record<string, { mutantCoverage?: Coverage }>)[namespace]?.mutantCoverage;
  let before: Record<string, number> = {};
  beforeAll(() => {
    before = { ...(coverage()?.static ?? {}) };
  });
  // Vitest reads a hook's first parameter as fixtures: it must be an empty pattern.
  // biome-ignore lint/correctness/noEmptyPattern: the fixtures Vitest hands a hook, none of them used
  afterAll(({}, suite) => {
    const found = coverage();
    if (!found) return;
    const hit = Object.keys(found.static).filter((id) => found.static[id] > (before[id] ?? 0));
    for (const test of testsOf(suite as unknown as Task)) {
      const counts = (found.perTest[testId(test)] ??= {});
      for (const id of hit) counts[id] = (counts[id] ?? 0) + 1;
    }
  });
}
