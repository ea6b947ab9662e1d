import { describe, expect, it } from 'vitest';
import { withPredecessors } from '../../tools/mutation/ordered-runner.mjs';

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
