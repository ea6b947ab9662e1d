/**
 * Stryker's Vitest runner, with each mutant's tests run in their file's order from its first test (test runner
 * `vitest-ordered`, stryker.config.mjs).
 *
 * Stryker runs only the tests that reach a mutant, picked by name. A test of an integration file often builds on
 * what the tests before it made (a threshold, then the alarm it raises, then its handling); run alone, it fails
 * whatever the mutant, and the mutant is counted as killed. Here a mutant's tests are run with every test before
 * them in the same file, so a test fails only where the mutant changed what it sees.
 *
 * The dry run (on one worker) writes each file's tests in the order they ran; every worker reads it. A survivor that
 * ran fewer tests than that is run again (`completeRun`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { strykerPlugins as vitestPlugins } from '@stryker-mutator/vitest-runner';

/** In the sandbox every worker runs in. */
const ORDER_FILE = 'stryker-test-order.json';

/** A Vitest test id is `<file>#<full name>`. */
const fileOf = (id) => id.slice(0, id.indexOf('#'));

/**
 * The tests to run for a mutant: in each file named by `wanted`, every test up to the last one wanted.
 * @param {Record<string, string[]>} order each file's test ids, in the order they ran
 * @param {readonly string[]} wanted
 */
export function withPredecessors(order, wanted) {
  const out = [];
  for (const file of new Set(wanted.map(fileOf))) {
    const tests = order[file] ?? [];
    const mine = wanted.filter((id) => fileOf(id) === file);
    const last = Math.max(...mine.map((id) => tests.indexOf(id)));
    // A test the dry run did not see (it should not happen) is run as asked.
    out.push(...tests.slice(0, last + 1), ...mine.filter((id) => !tests.includes(id)));
  }
  return out;
}

/**
 * A mutant's run, run once more when it survived having run fewer tests than it was to run. In long runs some
 * all-tests runs were cut short without a failure (215 of 242 tests, the file that kills the mutant not among them)
 * and counted as survivors; rerun alone, the same mutants were killed. Twice short is reported as an error, which
 * Stryker leaves out of the score, rather than as a survivor.
 * @template {{ status: string, nrOfTests?: number }} R
 * @param {() => Promise<R>} run
 * @param {number} wanted how many tests the run is to run
 * @returns {Promise<R | { status: 'error', errorMessage: string }>}
 */
export async function completeRun(run, wanted) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await run();
    if (result.status !== 'survived' || (result.nrOfTests ?? 0) >= wanted) return result;
  }
  return { status: 'error', errorMessage: `survived twice having run fewer than the ${wanted} tests it was to run` };
}

class OrderedRunner {
  /** @type {Record<string, string[]> | undefined} */
  order;

  constructor(inner) {
    this.inner = inner;
  }

  capabilities() {
    return this.inner.capabilities();
  }

  init() {
    return this.inner.init();
  }

  dispose() {
    return this.inner.dispose?.();
  }

  async dryRun(options) {
    const result = await this.inner.dryRun(options);
    if (result.status === 'complete') {
      /** @type {Record<string, string[]>} */
      const order = {};
      for (const test of result.tests) (order[fileOf(test.id)] ??= []).push(test.id);
      writeFileSync(ORDER_FILE, JSON.stringify(order));
    }
    return result;
  }

  mutantRun(options) {
    this.order ??= JSON.parse(readFileSync(ORDER_FILE, 'utf8'));
    // Without a filter the mutant runs every test (code reached outside any test, as a server starts).
    const testFilter = options.testFilter && withPredecessors(this.order, options.testFilter);
    const wanted = testFilter?.length ?? Object.values(this.order).flat().length;
    return completeRun(() => this.inner.mutantRun({ ...options, testFilter }), wanted);
  }
}

const vitestFactory = vitestPlugins[0].factory;

function orderedRunnerFactory(injector) {
  return new OrderedRunner(vitestFactory(injector));
}
orderedRunnerFactory.inject = tokens(commonTokens.injector);

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'vitest-ordered', orderedRunnerFactory)];
