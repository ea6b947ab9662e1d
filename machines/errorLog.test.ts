import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { badgeOf, type ErrorLogEntry, errorLogMachine } from './errorLog';

const entry = (message: string): ErrorLogEntry => ({ type: 'error', url: '/wel/index', message, stack: 'at x', info: '', time: '2026-11-21 08:00:00' });

function harness(upload: (logs: ErrorLogEntry[]) => Promise<void>) {
  const spies = { persist: vi.fn(), uploaded: vi.fn(), uploadFailed: vi.fn() };
  const machine = errorLogMachine.provide({
    actors: { upload: fromPromise<void, ErrorLogEntry[]>(({ input }) => upload(input)) },
    actions: spies,
  });
  return { actor: createActor(machine, { input: {} }).start(), spies };
}

describe('error log machine', () => {
  it('appends entries and clears them by hand', () => {
    const { actor, spies } = harness(async () => {});
    actor.send({ type: 'errorLog.add', entry: entry('a') });
    actor.send({ type: 'errorLog.add', entry: entry('b') });
    expect(actor.getSnapshot().context.logs.map((l) => l.message)).toEqual(['a', 'b']);
    actor.send({ type: 'errorLog.clear' });
    expect(actor.getSnapshot().context.logs).toEqual([]);
    expect(spies.persist).toHaveBeenCalledTimes(3);
  });

  it('uploads the logs and clears them after success, keeping errors recorded meanwhile', async () => {
    let release = () => {};
    const sent: ErrorLogEntry[][] = [];
    const { actor, spies } = harness((logs) => {
      sent.push(logs);
      return new Promise<void>((resolve) => (release = resolve));
    });
    actor.send({ type: 'errorLog.add', entry: entry('a') });
    actor.send({ type: 'errorLog.upload' });
    actor.send({ type: 'errorLog.add', entry: entry('late') });
    release();
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent[0].map((l) => l.message)).toEqual(['a']);
    expect(actor.getSnapshot().context.logs.map((l) => l.message)).toEqual(['late']);
    expect(spies.uploaded).toHaveBeenCalledOnce();
  });

  it('uploads at most 100 entries at a time', async () => {
    const sent: ErrorLogEntry[][] = [];
    const { actor } = harness(async (logs) => {
      sent.push(logs);
    });
    for (let i = 0; i < 120; i++) actor.send({ type: 'errorLog.add', entry: entry(`e${i}`) });
    actor.send({ type: 'errorLog.upload' });
    await waitFor(actor, (s) => s.matches('idle') && s.context.logs.length === 20);
    expect(sent[0]).toHaveLength(100);
    expect(actor.getSnapshot().context.logs[0].message).toBe('e100');
  });

  it('keeps the logs when the upload fails', async () => {
    const { actor, spies } = harness(async () => {
      throw new Error('服务器异常');
    });
    actor.send({ type: 'errorLog.add', entry: entry('a') });
    actor.send({ type: 'errorLog.upload' });
    await waitFor(actor, () => spies.uploadFailed.mock.calls.length > 0);
    expect(actor.getSnapshot().context.logs).toHaveLength(1);
  });

  it('caps the badge at 99', () => {
    expect(badgeOf(5)).toBe('5');
    expect(badgeOf(99)).toBe('99');
    expect(badgeOf(150)).toBe('99+');
  });
});
