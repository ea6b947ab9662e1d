import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { lockMachine } from './lock';

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
