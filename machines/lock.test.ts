import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { guard } from '../src/app/guard';
import { lockMachine, SCREEN_LOCKED } from './lock';

function harness(input = {}) {
  const clock = new SimulatedClock();
  const spies = { persist: vi.fn(), goToLock: vi.fn(), leaveLock: vi.fn() };
  const actor = createActor(lockMachine.provide({ actions: spies }), { input, clock }).start();
  return { actor, clock, spies };
}

describe('lock machine', () => {
  it('locks with a password and navigates to /lock after 100 ms', () => {
    const { actor, clock, spies } = harness();
    actor.send({ type: 'lock.set', password: 'pw' });
    expect(actor.getSnapshot().matches('locked')).toBe(true);
    expect(spies.persist).toHaveBeenCalledOnce();
    clock.increment(99);
    expect(spies.goToLock).not.toHaveBeenCalled();
    clock.increment(1);
    expect(spies.goToLock).toHaveBeenCalledOnce();
  });

  it('the guard redirects to /lock only once the 100 ms delay of the machine has passed', () => {
    const { actor, clock } = harness();
    const decide = () =>
      guard({ path: '/info/index', query: {}, meta: {}, label: '个人信息', hasToken: true, hasSession: true, locked: actor.getSnapshot().hasTag(SCREEN_LOCKED) });
    actor.send({ type: 'lock.set', password: 'pw' });
    clock.increment(99);
    expect(decide()).toMatchObject({ kind: 'enter' });
    clock.increment(1);
    expect(decide()).toEqual({ kind: 'redirect', to: '/lock' });
  });

  it('a restored lock redirects at once', () => {
    const { actor } = harness({ locked: true, password: 'pw' });
    expect(actor.getSnapshot().hasTag(SCREEN_LOCKED)).toBe(true);
  });

  it('refuses an empty password', () => {
    const { actor } = harness();
    actor.send({ type: 'lock.set', password: '' });
    expect(actor.getSnapshot().matches('unlocked')).toBe(true);
  });

  it('unlocks only with the same password', () => {
    const { actor, clock, spies } = harness();
    actor.send({ type: 'lock.set', password: 'pw' });
    clock.increment(100);
    actor.send({ type: 'lock.unlock', password: 'nope' });
    expect(actor.getSnapshot().matches('locked')).toBe(true);
    expect(actor.getSnapshot().context.wrongPassword).toBe(true);
    actor.send({ type: 'lock.unlock', password: 'pw' });
    expect(actor.getSnapshot().matches('unlocked')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ password: '', wrongPassword: false });
    expect(spies.leaveLock).toHaveBeenCalledOnce();
  });

  it('restores a stored lock without navigating again', () => {
    const { actor, clock, spies } = harness({ locked: true, password: 'pw' });
    expect(actor.getSnapshot().matches({ locked: 'shown' })).toBe(true);
    clock.increment(1000);
    expect(spies.goToLock).not.toHaveBeenCalled();
  });

  it('clearing resets the flag and the password', () => {
    const { actor } = harness({ locked: true, password: 'pw' });
    actor.send({ type: 'lock.clear' });
    expect(actor.getSnapshot().matches('unlocked')).toBe(true);
    expect(actor.getSnapshot().context.password).toBe('');
  });
});
