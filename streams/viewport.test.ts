import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { rootFontSizeOf, sizeClassOf, viewportChanges, viewportOf } from './viewport';

describe('viewport', () => {
  it('classes screen sizes at 768, 992 and 1200', () => {
    expect([0, 767, 768, 991, 992, 1199, 1200, 1920].map(sizeClassOf)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('sets the root font size to a hundredth of the width', () => {
    expect(rootFontSizeOf(1920)).toBe(19.2);
  });

  it('debounces resizes by 300 ms', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ cold, expectObservable }) => {
      const widths = cold('a 100ms b 100ms c 400ms d', { a: 800, b: 900, c: 1000, d: 1300 });
      expectObservable(viewportChanges(widths, 1920, scheduler)).toBe('i 501ms c 400ms d', {
        i: viewportOf(1920),
        c: viewportOf(1000),
        d: viewportOf(1300),
      });
    });
  });
});
