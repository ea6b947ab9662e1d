import { createActor, fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { type MarkInput, noticeReadMachine } from './noticeRead';

function harness(confirmAnswer = true, fail = false) {
  const marks: MarkInput[] = [];
  const spies = { warnNothingUnread: vi.fn(), marked: vi.fn(), confirm: vi.fn() };
  const machine = noticeReadMachine.provide({
    actors: {
      confirm: fromPromise<boolean>(async () => {
        spies.confirm();
        return confirmAnswer;
      }),
      mark: fromPromise<void, MarkInput>(async ({ input }) => {
        marks.push(input);
        if (fail) throw new Error('refused');
      }),
    },
    actions: { warnNothingUnread: spies.warnNothingUnread, marked: spies.marked },
  });
  const actor = createActor(machine).start();
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { actor, marks, spies, settle };
}

const page = [
  { id: '1', readFlag: 0 },
  { id: '2', readFlag: 1 },
  { id: '3', readFlag: 0 },
];

describe('notice read machine', () => {
  it('marks one unread row read, with no question', async () => {
    const h = harness();
    h.actor.send({ type: 'read.mark', row: page[0] });
    await h.settle();
    expect(h.marks).toEqual([{ ids: ['1'], single: true }]);
    expect(h.spies.confirm).not.toHaveBeenCalled();
    expect(h.spies.marked).toHaveBeenCalledOnce();
    expect(h.actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('has no way back: a read row is not marked again', async () => {
    const h = harness();
    h.actor.send({ type: 'read.mark', row: page[1] });
    await h.settle();
    expect(h.marks).toEqual([]);
    expect(h.spies.marked).not.toHaveBeenCalled();
  });

  it('marks all unread rows of the page after confirmation', async () => {
    const h = harness();
    h.actor.send({ type: 'read.markAll', rows: page });
    expect(h.actor.getSnapshot().matches('confirming')).toBe(true);
    await h.settle();
    expect(h.spies.confirm).toHaveBeenCalledOnce();
    expect(h.marks).toEqual([{ ids: ['1', '3'], single: false }]);
    expect(h.spies.marked).toHaveBeenCalledOnce();
  });

  it('warns when nothing on the page is unread', async () => {
    const h = harness();
    h.actor.send({ type: 'read.markAll', rows: [page[1]] });
    await h.settle();
    expect(h.spies.warnNothingUnread).toHaveBeenCalledOnce();
    expect(h.spies.confirm).not.toHaveBeenCalled();
    expect(h.marks).toEqual([]);
  });

  it('does nothing when the question is declined', async () => {
    const h = harness(false);
    h.actor.send({ type: 'read.markAll', rows: page });
    await h.settle();
    expect(h.marks).toEqual([]);
    expect(h.spies.marked).not.toHaveBeenCalled();
    expect(h.actor.getSnapshot().context.ids).toEqual([]);
  });

  it('says nothing of success when the server refuses', async () => {
    const h = harness(true, true);
    h.actor.send({ type: 'read.mark', row: page[0] });
    await h.settle();
    expect(h.marks).toHaveLength(1);
    expect(h.spies.marked).not.toHaveBeenCalled();
    expect(h.actor.getSnapshot().matches('idle')).toBe(true);
  });
});
