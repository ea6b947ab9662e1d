import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settled } from '../support/wait';
import { InFlight, InOrder, within } from '../../server/ingest/in-flight';

/** A promise and the hands that settle it. */
function deferred() {
  let resolve = () => {};
  let reject = (_error: Error) => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The broker's drain at close (server/ingest/broker.ts): data in flight counted, waited for within a bound. */
describe('InFlight', () => {
  it('is idle at once with nothing in flight', async () => {
    expect(await settled(new InFlight().idle(60_000))).toBe(true);
  });

  it('waits for every piece of work in flight, not the first to end', async () => {
    const flight = new InFlight();
    const [first, second] = [deferred(), deferred()];
    const tracked = [flight.track(first.promise), flight.track(second.promise)];
    const idle = flight.idle(60_000);
    first.resolve();
    await tracked[0];
    expect(await settled(idle)).toBe(false);
    second.resolve();
    await tracked[1];
    expect(await settled(idle)).toBe(true);
  });

  it('counts work that fails as ended, and hands its failure back', async () => {
    const flight = new InFlight();
    const failing = deferred();
    const tracked = flight.track(failing.promise);
    const idle = flight.idle(60_000);
    failing.reject(new Error('storage failure'));
    await expect(tracked).rejects.toThrow('storage failure');
    expect(await settled(idle)).toBe(true);
    // Nothing is left counted: the next wait ends at once.
    expect(await settled(flight.idle(60_000))).toBe(true);
  });

  it('wakes every waiter once the last piece ends', async () => {
    const flight = new InFlight();
    const work = deferred();
    const tracked = flight.track(work.promise);
    const waits = [flight.idle(60_000), flight.idle(60_000)];
    work.resolve();
    await tracked;
    expect(await Promise.all(waits.map(settled))).toEqual([true, true]);
  });
});

/** Each client's acknowledgements in the order of its messages, though their batches commit side by side. */
describe('InOrder', () => {
  const [alpha, beta] = [{ client: 'alpha' }, { client: 'beta' }];

  it("settles a key's work in the order it was added, though the later ends first", async () => {
    const order = new InOrder<object>();
    const [first, second] = [deferred(), deferred()];
    const answered: string[] = [];
    const done = [order.after(alpha, first.promise).then(() => answered.push('first')), order.after(alpha, second.promise).then(() => answered.push('second'))];
    second.resolve();
    await second.promise;
    expect(await settled(done[1])).toBe(false);
    first.resolve();
    await Promise.all(done);
    expect(answered).toEqual(['first', 'second']);
  });

  it("never holds one key's work for another's", async () => {
    const order = new InOrder<object>();
    void order.after(alpha, deferred().promise);
    const other = deferred();
    const done = order.after(beta, other.promise);
    other.resolve();
    expect(await settled(done)).toBe(true);
  });

  it('fails a failed piece on its own, and the next still waits for it and then goes on', async () => {
    const order = new InOrder<object>();
    const [failing, next] = [deferred(), deferred()];
    const first = order.after(alpha, failing.promise);
    const second = order.after(alpha, next.promise);
    next.resolve();
    expect(await settled(second)).toBe(false);
    failing.reject(new Error('storage failure'));
    await expect(first).rejects.toThrow('storage failure');
    expect(await settled(second)).toBe(true);
  });

  it('hands a later piece its own failure, handled even while the one before it runs', async () => {
    const order = new InOrder<object>();
    const [slow, failing] = [deferred(), deferred()];
    void order.after(alpha, slow.promise);
    const second = order.after(alpha, failing.promise);
    failing.reject(new Error('refused'));
    slow.resolve();
    await expect(second).rejects.toThrow('refused');
  });
});

describe('the bounds, on a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stops waiting for work in flight once the drain's time is up", async () => {
    const flight = new InFlight();
    void flight.track(deferred().promise);
    let idle = false;
    void flight.idle(3_000).then(() => (idle = true));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(idle).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle).toBe(true);
  });

  it('within: resolves with the work when it ends first, leaving no timer behind', async () => {
    const work = deferred();
    let done = false;
    void within(work.promise, 2_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
    work.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect([done, vi.getTimerCount()]).toEqual([true, 0]);
  });

  it('within: resolves when the time is up, however long the work goes on', async () => {
    let done = false;
    void within(deferred().promise, 2_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
