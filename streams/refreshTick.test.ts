import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { refreshTicks } from './refreshTick';

describe('refreshTicks', () => {
  it('ticks every 10000 ms with the current time', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ expectObservable }) => {
      expectObservable(refreshTicks(scheduler), '^ 30001ms !').toBe('10000ms a 9999ms b 9999ms c', {
        a: { type: 'session.tick', at: 10000 },
        b: { type: 'session.tick', at: 20000 },
        c: { type: 'session.tick', at: 30000 },
      });
    });
  });
});
