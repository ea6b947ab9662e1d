import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { EN } from '../resources/messages-en';
import { type CompleteTaskBody, FLOW_MESSAGES, type HandOverBody } from '../resources/wire/flow';
import { RequestError } from '../src/api/http';
import { failureOf, LEAVE_DELAY_MS, type TaskEvent, taskMachine } from './task';

/** A deferred answer: the test decides when (and how) the server answers each call. */
interface Call<I> {
  input: I;
  resolve(): void;
  reject(error: unknown): void;
}

function harness() {
  const clock = new SimulatedClock();
  const calls = {
    claim: [] as Call<{ taskId: string }>[],
    complete: [] as Call<CompleteTaskBody>[],
    transfer: [] as Call<HandOverBody>[],
    delegate: [] as Call<HandOverBody>[],
  };
  const deferred = <I>(list: Call<I>[]) =>
    fromPromise<void, I>(({ input }) => new Promise<void>((resolve, reject) => list.push({ input, resolve, reject })));
  const spies = { claimed: vi.fn(), finished: vi.fn(), leave: vi.fn() };
  const machine = taskMachine.provide({
    actors: { claim: deferred(calls.claim), complete: deferred(calls.complete), transfer: deferred(calls.transfer), delegate: deferred(calls.delegate) },
    actions: spies,
  });
  const actor = createActor(machine, { input: { taskId: '11', processInstanceId: '22' }, clock }).start();
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const send = (event: TaskEvent) => actor.send(event);
  const state = () => actor.getSnapshot().value;
  const context = () => actor.getSnapshot().context;
  return { actor, clock, calls, spies, settle, send, state, context };
}

const refusal = (message: string) => new RequestError(message, 400);
const networkDown = () => new RequestError('网络异常', 0);

/** A harness whose task is the caller's to handle. */
function ready() {
  const h = harness();
  h.send({ type: 'task.loaded', status: 'todo', mine: true });
  return h;
}

describe('task machine: loading', () => {
  it('starts loading and goes where the task detail says', () => {
    const cases = [
      [{ status: 'claim', mine: false }, 'unclaimed'],
      [{ status: 'todo', mine: true }, 'ready'],
      [{ status: 'todo', mine: false }, 'heldByOther'],
      [{ status: 'finished', mine: true }, 'done'],
      [{ status: 'finished', mine: false }, 'done'],
    ] as const;
    for (const [loaded, expected] of cases) {
      const h = harness();
      expect(h.state()).toBe('loading');
      h.send({ type: 'task.loaded', ...loaded });
      expect(h.state(), JSON.stringify(loaded)).toBe(expected);
    }
  });

  it('a task that cannot be read is unavailable, with the reason', () => {
    const h = harness();
    h.send({ type: 'task.missing', message: FLOW_MESSAGES.taskMissing });
    expect(h.state()).toBe('unavailable');
    expect(h.context().error).toBe(FLOW_MESSAGES.taskMissing);
  });

  it('takes no action before the task is known', async () => {
    const h = harness();
    h.send({ type: 'task.claim' });
    h.send({ type: 'task.approve' });
    await h.settle();
    expect(h.calls.claim).toHaveLength(0);
    expect(h.calls.complete).toHaveLength(0);
    expect(h.state()).toBe('loading');
  });
});

describe('task machine: claim', () => {
  it('claims an unclaimed task, then handles it', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.claim' });
    expect(h.state()).toBe('claiming');
    expect(h.calls.claim.map((c) => c.input)).toEqual([{ taskId: '11' }]);
    h.calls.claim[0].resolve();
    await h.settle();
    expect(h.state()).toBe('ready');
    expect(h.context().claimed).toBe(true);
    expect(h.spies.claimed).toHaveBeenCalledOnce();
  });

  it('cannot approve an unclaimed task without claiming it first', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.approve' });
    await h.settle();
    expect(h.calls.complete).toHaveLength(0);
    expect(h.state()).toBe('unclaimed');
  });

  it('a double click on 签收 claims once', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.claim' });
    h.send({ type: 'task.claim' });
    await h.settle();
    expect(h.calls.claim).toHaveLength(1);
  });

  it('someone else claimed it first: a state of its own, not the buttons again', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.claim' });
    h.calls.claim[0].reject(refusal(FLOW_MESSAGES.claimedByOther));
    await h.settle();
    expect(h.state()).toBe('claimedByOther');
    expect(h.context().error).toBe(FLOW_MESSAGES.claimedByOther);
    expect(h.spies.claimed).not.toHaveBeenCalled();
    expect(h.actor.getSnapshot().status).toBe('done');
  });

  it('the task was finished meanwhile: done', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.claim' });
    h.calls.claim[0].reject(refusal(FLOW_MESSAGES.alreadyDone));
    await h.settle();
    expect(h.state()).toBe('done');
  });

  it('another refusal goes back to 签收 with its message', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.claim' });
    h.calls.claim[0].reject(refusal(FLOW_MESSAGES.notYours));
    await h.settle();
    expect(h.state()).toBe('unclaimed');
    expect(h.context().error).toBe(FLOW_MESSAGES.notYours);
    expect(h.context().pending).toBeUndefined();
    h.send({ type: 'task.claim' });
    expect(h.state()).toBe('claiming');
    expect(h.context().error).toBeUndefined();
  });

  it('a claim lost on the network is retried as a claim, and dismissing returns to 签收', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.claim' });
    h.calls.claim[0].reject(networkDown());
    await h.settle();
    expect(h.state()).toBe('failed');
    expect(h.context().error).toBe('网络异常');
    h.send({ type: 'task.retry' });
    expect(h.state()).toBe('claiming');
    expect(h.calls.claim).toHaveLength(2);
    h.calls.claim[1].reject(networkDown());
    await h.settle();
    h.send({ type: 'task.dismiss' });
    expect(h.state()).toBe('unclaimed');
    expect(h.context().pending).toBeUndefined();
  });
});

describe('task machine: complete', () => {
  it('approves with the comment typed, then says so and leaves after the delay', async () => {
    const h = ready();
    h.send({ type: 'comment.change', comment: '  同意,注意安全  ' });
    h.send({ type: 'task.approve' });
    expect(h.state()).toBe('completing');
    expect(h.calls.complete.map((c) => c.input)).toEqual([{ taskId: '11', processInstanceId: '22', pass: true, comment: '同意,注意安全' }]);
    h.calls.complete[0].resolve();
    await h.settle();
    expect(h.state()).toBe('finished');
    expect(h.context().outcome).toBe('approved');
    expect(h.spies.finished).toHaveBeenCalledOnce();
    h.clock.increment(LEAVE_DELAY_MS - 1);
    expect(h.spies.leave).not.toHaveBeenCalled();
    h.clock.increment(1);
    expect(h.spies.leave).toHaveBeenCalledOnce();
    expect(h.state()).toBe('left');
  });

  it('rejects with pass false; an empty comment is not sent (the server says 驳回)', async () => {
    const h = ready();
    h.send({ type: 'comment.change', comment: '   ' });
    h.send({ type: 'task.reject' });
    expect(h.calls.complete[0].input).toEqual({ taskId: '11', processInstanceId: '22', pass: false });
    h.calls.complete[0].resolve();
    await h.settle();
    expect(h.context().outcome).toBe('rejected');
  });

  it('a double click sends once', async () => {
    const h = ready();
    h.send({ type: 'task.approve' });
    h.send({ type: 'task.approve' });
    h.send({ type: 'task.reject' });
    h.send({ type: 'task.transfer', userId: '9' });
    await h.settle();
    expect(h.calls.complete).toHaveLength(1);
    expect(h.calls.transfer).toHaveLength(0);
    expect(h.calls.complete[0].input.pass).toBe(true);
  });

  it('a network failure keeps the comment and the choice: the retry sends them again', async () => {
    const h = ready();
    h.send({ type: 'comment.change', comment: '材料不全' });
    h.send({ type: 'task.reject' });
    h.calls.complete[0].reject(networkDown());
    await h.settle();
    expect(h.state()).toBe('failed');
    expect(h.context().comment).toBe('材料不全');
    expect(h.context().pending).toEqual({ action: 'reject' });
    h.send({ type: 'task.approve' });
    expect(h.state()).toBe('failed');
    h.send({ type: 'task.retry' });
    expect(h.state()).toBe('completing');
    expect(h.calls.complete[1].input).toEqual({ taskId: '11', processInstanceId: '22', pass: false, comment: '材料不全' });
    h.calls.complete[1].resolve();
    await h.settle();
    expect(h.context().outcome).toBe('rejected');
    expect(h.spies.finished).toHaveBeenCalledOnce();
  });

  it('the retry sends the comment as edited meanwhile', async () => {
    const h = ready();
    h.send({ type: 'comment.change', comment: '同意' });
    h.send({ type: 'task.approve' });
    h.calls.complete[0].reject(new RequestError('请求超时', 0));
    await h.settle();
    h.send({ type: 'comment.change', comment: '同意,下次提前申请' });
    h.send({ type: 'task.retry' });
    expect(h.calls.complete[1].input.comment).toBe('同意,下次提前申请');
  });

  it('a gateway error (no handler answered) counts as the network; a server error of 500 does not', () => {
    expect(failureOf(new RequestError('网络异常', 502)).kind).toBe('network');
    expect(failureOf(new TypeError('Failed to fetch')).kind).toBe('network');
    expect(failureOf(new RequestError('服务器异常', 500)).kind).toBe('refused');
  });

  it('dismissing a failure goes back to the buttons of a claimed task, the comment still there', async () => {
    const h = ready();
    h.send({ type: 'comment.change', comment: '同意' });
    h.send({ type: 'task.approve' });
    h.calls.complete[0].reject(networkDown());
    await h.settle();
    h.send({ type: 'task.dismiss' });
    expect(h.state()).toBe('ready');
    expect(h.context().comment).toBe('同意');
    expect(h.context().error).toBeUndefined();
  });

  it('claimed and then lost on the network: dismissing returns to the buttons, not to 签收', async () => {
    const h = harness();
    h.send({ type: 'task.loaded', status: 'claim', mine: false });
    h.send({ type: 'task.claim' });
    h.calls.claim[0].resolve();
    await h.settle();
    h.send({ type: 'task.approve' });
    h.calls.complete[0].reject(networkDown());
    await h.settle();
    h.send({ type: 'task.dismiss' });
    expect(h.state()).toBe('ready');
  });

  it('someone else took it (任务已被他人签收) while it was being handled', async () => {
    const h = ready();
    h.send({ type: 'task.approve' });
    h.calls.complete[0].reject(refusal(FLOW_MESSAGES.claimedByOther));
    await h.settle();
    expect(h.state()).toBe('claimedByOther');
    expect(h.spies.finished).not.toHaveBeenCalled();
  });

  it('already done (任务已办结): done, nothing said of success', async () => {
    const h = ready();
    h.send({ type: 'task.approve' });
    h.calls.complete[0].reject(refusal(FLOW_MESSAGES.alreadyDone));
    await h.settle();
    expect(h.state()).toBe('done');
    expect(h.context().error).toBe(FLOW_MESSAGES.alreadyDone);
    expect(h.spies.finished).not.toHaveBeenCalled();
    h.clock.increment(LEAVE_DELAY_MS * 2);
    expect(h.spies.leave).not.toHaveBeenCalled();
  });

  it('an answer already given that said the other thing: done, with what stands', async () => {
    const h = ready();
    h.send({ type: 'task.reject' });
    h.calls.complete[0].reject(refusal(FLOW_MESSAGES.alreadyApproved));
    await h.settle();
    expect(h.state()).toBe('done');
    expect(h.context().error).toBe(FLOW_MESSAGES.alreadyApproved);
    expect(h.spies.finished).not.toHaveBeenCalled();
    expect(failureOf(refusal(EN[FLOW_MESSAGES.alreadyRejected])).kind).toBe('alreadyDone');
  });

  it('tells the server messages apart in English too', async () => {
    const h = ready();
    h.send({ type: 'task.approve' });
    h.calls.complete[0].reject(refusal(EN[FLOW_MESSAGES.claimedByOther]));
    await h.settle();
    expect(h.state()).toBe('claimedByOther');
    expect(failureOf(refusal(EN[FLOW_MESSAGES.alreadyDone])).kind).toBe('alreadyDone');
  });

  it('any other refusal returns to the buttons with its message, the comment kept', async () => {
    const h = ready();
    h.send({ type: 'comment.change', comment: 'ok' });
    h.send({ type: 'task.approve' });
    h.calls.complete[0].reject(refusal(FLOW_MESSAGES.notYours));
    await h.settle();
    expect(h.state()).toBe('ready');
    expect(h.context()).toMatchObject({ error: FLOW_MESSAGES.notYours, comment: 'ok', pending: undefined });
    h.send({ type: 'task.retry' });
    expect(h.state()).toBe('ready');
  });
});

describe('task machine: transfer and delegate', () => {
  it('transfers to the chosen user with the comment', async () => {
    const h = ready();
    h.send({ type: 'comment.change', comment: '请王五处理' });
    h.send({ type: 'task.transfer', userId: '900' });
    expect(h.state()).toBe('transferring');
    expect(h.calls.transfer.map((c) => c.input)).toEqual([{ taskId: '11', userId: '900', comment: '请王五处理' }]);
    h.calls.transfer[0].resolve();
    await h.settle();
    expect(h.context().outcome).toBe('transferred');
    expect(h.spies.finished).toHaveBeenCalledOnce();
  });

  it('delegates to the chosen user (no comment: none sent)', async () => {
    const h = ready();
    h.send({ type: 'task.delegate', userId: '901' });
    expect(h.calls.delegate.map((c) => c.input)).toEqual([{ taskId: '11', userId: '901' }]);
    h.calls.delegate[0].resolve();
    await h.settle();
    expect(h.context().outcome).toBe('delegated');
    expect(h.calls.transfer).toHaveLength(0);
  });

  it('without a user nothing is sent', async () => {
    const h = ready();
    h.send({ type: 'task.transfer', userId: '' });
    h.send({ type: 'task.delegate', userId: '  ' });
    await h.settle();
    expect(h.state()).toBe('ready');
    expect(h.calls.transfer).toHaveLength(0);
    expect(h.calls.delegate).toHaveLength(0);
  });

  it('a delegation lost on the network is retried to the same user', async () => {
    const h = ready();
    h.send({ type: 'task.delegate', userId: '901' });
    h.calls.delegate[0].reject(networkDown());
    await h.settle();
    expect(h.state()).toBe('failed');
    h.send({ type: 'task.retry' });
    expect(h.state()).toBe('delegating');
    expect(h.calls.delegate[1].input).toEqual({ taskId: '11', userId: '901' });
    expect(h.calls.transfer).toHaveLength(0);
    expect(h.calls.complete).toHaveLength(0);
  });

  it('a transfer lost on the network is retried as a transfer', async () => {
    const h = ready();
    h.send({ type: 'task.transfer', userId: '900' });
    h.calls.transfer[0].reject(networkDown());
    await h.settle();
    h.send({ type: 'task.retry' });
    expect(h.state()).toBe('transferring');
    expect(h.calls.transfer[1].input.userId).toBe('900');
    expect(h.calls.delegate).toHaveLength(0);
  });

  it('a refused user (not of the tenant) returns to the buttons with the message', async () => {
    const h = ready();
    h.send({ type: 'task.transfer', userId: '900' });
    h.calls.transfer[0].reject(refusal('办理人不存在或不属于本租户'));
    await h.settle();
    expect(h.state()).toBe('ready');
    expect(h.context().error).toBe('办理人不存在或不属于本租户');
    expect(h.spies.finished).not.toHaveBeenCalled();
  });
});
