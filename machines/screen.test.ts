import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import {
  LAST_RESORT_MS,
  LOADING_GIVE_UP_MS,
  MIN_RELOAD_GAP_MS,
  RECONNECT_MAX_MS,
  type ProbeResult,
  reconnectDelay,
  SLOW_CHECK_MS,
  STALE_GIVE_UP_MS,
  screenMachine,
  VERSION_CHECK_MS,
  WATCHDOG_MS,
} from './screen';

const OK: ProbeResult = { kind: 'ok' };
const DOWN: ProbeResult = { kind: 'unreachable' };
const refused = (reason: 'revoked' | 'expired' | 'invalid'): ProbeResult => ({ kind: 'refused', reason });

/** The machine on a simulated clock; the probe and the version check answer what the test queues (or wait for it). */
function harness(input: { reloadedAt?: number } = {}) {
  const clock = new SimulatedClock();
  const probes: ProbeResult[] = [];
  const versions: boolean[] = [];
  const calls = { probe: 0, checkVersion: 0 };
  const spies = { forceReconnect: vi.fn(), closeSocket: vi.fn(), reopen: vi.fn(), reload: vi.fn() };
  const answer = <T>(queue: T[], what: string) => {
    const next = queue.shift();
    return next === undefined ? Promise.reject(new Error(`no ${what} queued`)) : Promise.resolve(next);
  };
  const machine = screenMachine.provide({
    actors: {
      probe: fromPromise<ProbeResult>(() => {
        calls.probe += 1;
        return answer(probes, 'probe');
      }),
      checkVersion: fromPromise<boolean>(() => {
        calls.checkVersion += 1;
        return answer(versions, 'version');
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine, { input: { ...input, now: () => clock.now() }, clock }).start();
  /** Lets the actors' promises settle. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const state = () => actor.getSnapshot();
  const synced = () => actor.send({ type: 'data.synced', at: clock.now() });
  return { actor, clock, probes, versions, calls, spies, settle, state, synced };
}

describe('screen machine', () => {
  it('goes live on the first snapshot and stays live while events or heartbeats arrive', () => {
    const h = harness();
    expect(h.state().matches('loading')).toBe(true);
    h.clock.increment(1_000);
    h.synced();
    expect(h.state().matches('live')).toBe(true);
    for (let i = 0; i < 5; i += 1) {
      h.clock.increment(WATCHDOG_MS - 1);
      h.actor.send({ type: 'socket.activity', at: h.clock.now() });
    }
    expect(h.state().matches('live')).toBe(true);
    expect(h.state().context.staleSince).toBeUndefined();
    expect(h.spies.forceReconnect).not.toHaveBeenCalled();
  });

  it('forces a reconnect when a connected socket went silent, stale since its last sign of life', () => {
    const h = harness();
    h.synced();
    h.clock.increment(10_000);
    h.actor.send({ type: 'socket.activity', at: h.clock.now() });
    const lastSign = h.clock.now();
    h.clock.increment(WATCHDOG_MS - 1);
    expect(h.state().matches('live')).toBe(true);
    h.clock.increment(1);
    expect(h.state().matches('reconnecting')).toBe(true);
    expect(h.spies.forceReconnect).toHaveBeenCalledOnce();
    expect(h.state().context.staleSince).toBe(lastSign);
  });

  it('marks the data stale when the socket drops and is live again, not stale, once it has resynced', async () => {
    const h = harness();
    h.synced();
    h.clock.increment(5_000);
    h.actor.send({ type: 'socket.down', at: h.clock.now() });
    expect(h.state().matches('stale')).toBe(true);
    expect(h.state().context.staleSince).toBe(5_000);
    // Back up, but not in sync yet: still stale.
    h.clock.increment(3_000);
    h.actor.send({ type: 'socket.up', at: h.clock.now() });
    expect(h.state().matches('stale')).toBe(true);
    h.versions.push(false);
    h.synced();
    expect(h.state().matches('live')).toBe(true);
    expect(h.state().context.staleSince).toBeUndefined();
    // After an outage the console's version is checked at once.
    expect(h.calls.checkVersion).toBe(1);
    await h.settle();
    expect(h.state().matches({ live: { version: 'waiting' } })).toBe(true);
    expect(h.spies.reload).not.toHaveBeenCalled();
  });

  it('forces reconnects with a growing backoff when socket.io does not get back by itself', () => {
    const h = harness();
    h.synced();
    h.actor.send({ type: 'socket.down', at: h.clock.now() });
    h.clock.increment(STALE_GIVE_UP_MS);
    expect(h.state().matches('reconnecting')).toBe(true);
    expect(h.spies.forceReconnect).toHaveBeenCalledTimes(1);
    const delays = [5_000, 10_000, 20_000, 40_000, 60_000, 60_000];
    expect(delays.map((_, i) => reconnectDelay(i))).toEqual(delays);
    for (const [i, delay] of delays.entries()) {
      h.clock.increment(delay - 1);
      expect(h.spies.forceReconnect).toHaveBeenCalledTimes(i + 1);
      h.clock.increment(1);
      expect(h.spies.forceReconnect).toHaveBeenCalledTimes(i + 2);
    }
    // Stale since the drop, whatever happened after.
    expect(h.state().context.staleSince).toBe(0);
    h.synced();
    expect(h.state().matches('live')).toBe(true);
    expect(h.state().context).toMatchObject({ staleSince: undefined, attempts: 0 });
  });

  it('forces reconnects when the first snapshot does not come', () => {
    const h = harness();
    h.clock.increment(LOADING_GIVE_UP_MS);
    expect(h.state().matches('reconnecting')).toBe(true);
    expect(h.spies.forceReconnect).toHaveBeenCalledOnce();
    // Nothing was shown yet, so nothing is stale.
    expect(h.state().context.staleSince).toBeUndefined();
  });

  it('reloads as a last resort only once the server answers again, never during the outage', async () => {
    const h = harness();
    h.synced();
    h.clock.increment(WATCHDOG_MS);
    expect(h.state().matches('reconnecting')).toBe(true);
    h.probes.push(DOWN);
    h.clock.increment(LAST_RESORT_MS);
    expect(h.calls.probe).toBe(1);
    await h.settle();
    // The server does not answer: no reload, another reconnect, another question after the backoff.
    expect(h.state().matches({ reconnecting: { late: 'waiting' } })).toBe(true);
    expect(h.spies.reload).not.toHaveBeenCalled();
    h.probes.push(DOWN);
    h.clock.increment(RECONNECT_MAX_MS);
    await h.settle();
    expect(h.calls.probe).toBe(2);
    expect(h.spies.reload).not.toHaveBeenCalled();
    h.probes.push(OK);
    h.clock.increment(RECONNECT_MAX_MS);
    await h.settle();
    expect(h.spies.reload).toHaveBeenCalledOnce();
    expect(h.state().status).toBe('done');
  });

  it('does not reload again within the reload gap: it keeps reconnecting instead', async () => {
    const h = harness({ reloadedAt: 0 });
    h.clock.increment(60_000);
    h.synced();
    h.clock.increment(WATCHDOG_MS);
    h.probes.push(OK);
    h.clock.increment(LAST_RESORT_MS);
    await h.settle();
    expect(h.spies.reload).not.toHaveBeenCalled();
    expect(h.state().matches({ reconnecting: { late: 'waiting' } })).toBe(true);
    // Once the gap has passed, an answering server reloads the page.
    h.clock.increment(MIN_RELOAD_GAP_MS);
    await h.settle();
    h.probes.push(OK);
    h.clock.increment(RECONNECT_MAX_MS);
    await h.settle();
    expect(h.spies.reload).toHaveBeenCalledOnce();
  });

  it('reloads for a new console version found while live, and only within the reload rule', async () => {
    const h = harness();
    h.synced();
    h.actor.send({ type: 'socket.activity', at: h.clock.now() });
    h.versions.push(false);
    // Heartbeats keep the watchdog quiet for the hour.
    for (let t = 0; t < VERSION_CHECK_MS; t += 30_000) {
      h.clock.increment(30_000);
      h.actor.send({ type: 'socket.activity', at: h.clock.now() });
    }
    expect(h.calls.checkVersion).toBe(1);
    await h.settle();
    expect(h.spies.reload).not.toHaveBeenCalled();
    h.versions.push(true);
    for (let t = 0; t < VERSION_CHECK_MS; t += 30_000) {
      h.clock.increment(30_000);
      h.actor.send({ type: 'socket.activity', at: h.clock.now() });
    }
    await h.settle();
    expect(h.spies.reload).toHaveBeenCalledOnce();

    const recent = harness({ reloadedAt: 0 });
    recent.synced();
    recent.actor.send({ type: 'socket.down', at: 1 });
    recent.versions.push(true);
    recent.clock.increment(1_000);
    recent.synced();
    await recent.settle();
    expect(recent.calls.checkVersion).toBe(1);
    expect(recent.spies.reload).not.toHaveBeenCalled();
    expect(recent.state().matches('live')).toBe(true);
  });

  it('closes a refused link, says why, and checks it again slowly until an administrator fixes it', async () => {
    const h = harness();
    h.synced();
    h.actor.send({ type: 'data.refused', reason: 'revoked' });
    expect(h.state().matches('revoked')).toBe(true);
    expect(h.state().context.refusal).toBe('revoked');
    expect(h.spies.closeSocket).toHaveBeenCalledOnce();
    expect(h.calls.probe).toBe(0);
    h.probes.push(refused('revoked'));
    h.clock.increment(SLOW_CHECK_MS);
    await h.settle();
    expect(h.calls.probe).toBe(1);
    expect(h.state().matches('revoked')).toBe(true);
    // The server cannot be reached: still revoked, checked again later.
    h.probes.push(DOWN);
    h.clock.increment(SLOW_CHECK_MS);
    await h.settle();
    expect(h.state().matches('revoked')).toBe(true);
    expect(h.spies.reopen).not.toHaveBeenCalled();
    h.probes.push(OK);
    h.clock.increment(SLOW_CHECK_MS);
    await h.settle();
    expect(h.spies.reopen).toHaveBeenCalledOnce();
    expect(h.state().matches('loading')).toBe(true);
    h.synced();
    expect(h.state().matches('live')).toBe(true);
    expect(h.state().context.refusal).toBeUndefined();
  });

  it('asks why when the server refuses the handshake or says the link was revoked', async () => {
    const expired = harness();
    expired.synced();
    expired.probes.push(refused('expired'));
    expired.actor.send({ type: 'link.revoked' });
    expect(expired.state().matches('checking')).toBe(true);
    await expired.settle();
    expect(expired.state().matches('invalid')).toBe(true);
    expect(expired.state().context.refusal).toBe('expired');

    // Said revoked, and the server cannot be asked: revoked.
    const revoked = harness();
    revoked.synced();
    revoked.probes.push(DOWN);
    revoked.actor.send({ type: 'link.revoked' });
    await revoked.settle();
    expect(revoked.state().matches('revoked')).toBe(true);
    expect(revoked.state().context.refusal).toBe('revoked');

    // A refused handshake whose link the screen call accepts: a passing trouble, reconnect.
    const passing = harness();
    passing.synced();
    passing.probes.push(OK);
    passing.actor.send({ type: 'socket.refused' });
    await passing.settle();
    expect(passing.state().matches('reconnecting')).toBe(true);
    expect(passing.spies.forceReconnect).toHaveBeenCalledOnce();

    const unknown = harness();
    unknown.probes.push(refused('invalid'));
    unknown.actor.send({ type: 'socket.refused' });
    await unknown.settle();
    expect(unknown.state().matches('invalid')).toBe(true);
    expect(unknown.state().context.refusal).toBe('invalid');
  });
});
