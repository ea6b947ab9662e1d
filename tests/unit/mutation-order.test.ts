import { describe, expect, it } from 'vitest';
import { completeRun, withPredecessors } from '../../tools/mutation/ordered-runner.mjs';

describe("a mutant's tests with the tests before them", () => {
  const order = {
    'tests/a.test.ts': ['tests/a.test.ts#a one', 'tests/a.test.ts#a two', 'tests/a.test.ts#a three'],
    'tests/b.test.ts': ['tests/b.test.ts#b one', 'tests/b.test.ts#b two'],
  };

  it('runs every test of a file up to the last one wanted, in order', () => {
    expect(withPredecessors(order, ['tests/a.test.ts#a two'])).toEqual(['tests/a.test.ts#a one', 'tests/a.test.ts#a two']);
    expect(withPredecessors(order, ['tests/a.test.ts#a three', 'tests/a.test.ts#a one'])).toEqual(order['tests/a.test.ts']);
    expect(withPredecessors(order, ['tests/a.test.ts#a one'])).toEqual(['tests/a.test.ts#a one']);
  });

  it('keeps each file to its own tests', () => {
    expect(withPredecessors(order, ['tests/b.test.ts#b one', 'tests/a.test.ts#a two'])).toEqual(['tests/b.test.ts#b one', 'tests/a.test.ts#a one', 'tests/a.test.ts#a two']);
  });

  it('runs a test the dry run did not see as asked', () => {
    expect(withPredecessors(order, ['tests/c.test.ts#c one', 'tests/a.test.ts#a one'])).toEqual(['tests/c.test.ts#c one', 'tests/a.test.ts#a one']);
    expect(withPredecessors(order, ['tests/a.test.ts#a new', 'tests/a.test.ts#a two'])).toEqual(['tests/a.test.ts#a one', 'tests/a.test.ts#a two', 'tests/a.test.ts#a new']);
  });

  it('keeps a # inside a test name', () => {
    const named = { 'tests/d.test.ts': ['tests/d.test.ts#first', 'tests/d.test.ts#issue #20'] };
    expect(withPredecessors(named, ['tests/d.test.ts#issue #20'])).toEqual(named['tests/d.test.ts']);
  });
});

describe("a mutant's run cut short", () => {
  type Result = { status: string; nrOfTests?: number };
  /** A run answering `results` in turn, counting its calls. */
  const runs = (...results: Result[]) => {
    const run = async () => results[run.calls++];
    run.calls = 0;
    return run;
  };

  it('keeps a survivor that ran every test it was to run, and any kill', async () => {
    const full = runs({ status: 'survived', nrOfTests: 5 });
    expect(await completeRun(full, 5)).toEqual({ status: 'survived', nrOfTests: 5 });
    expect(full.calls).toBe(1);
    const killed = runs({ status: 'killed', nrOfTests: 2 });
    expect(await completeRun(killed, 5)).toEqual({ status: 'killed', nrOfTests: 2 });
    expect(killed.calls).toBe(1);
  });

  it('runs a survivor that ran fewer tests again, and takes the second result', async () => {
    const short = runs({ status: 'survived', nrOfTests: 4 }, { status: 'killed', nrOfTests: 5 });
    expect(await completeRun(short, 5)).toEqual({ status: 'killed', nrOfTests: 5 });
    expect(short.calls).toBe(2);
  });

  it('reports an error, not a survivor, when both runs are short', async () => {
    const twice = runs({ status: 'survived', nrOfTests: 4 }, { status: 'survived', nrOfTests: 3 });
    expect(await completeRun(twice, 5)).toEqual({ status: 'error', errorMessage: 'survived twice having run fewer than the 5 tests it was to run' });
    expect(twice.calls).toBe(2);
  });
});
