import { assign, fromPromise, setup } from 'xstate';
import { EN } from '../resources/messages-en';
import type { CompleteTaskBody, FlowTask, HandOverBody } from '../resources/wire/flow';
import { FLOW_MESSAGES } from '../resources/wire/flow';

/**
 * A task's lifecycle on its handle page (docs/workflow.md "Calls", spec §7 "Workflow"): claim → handle → approve,
 * reject, transfer or delegate. The server's answer decides the next state: a task someone else claimed first, or one
 * already done, ends the page's part in it; a network failure keeps what the user asked for — the action, its user
 * and the comment — for a retry; any other refusal goes back to where the user was, with its message.
 */

/** What the user asked of the task. */
export type TaskAction = 'claim' | 'approve' | 'reject' | 'transfer' | 'delegate';

/** The action under way, or the last one that failed on the network: retried as it was. */
export interface PendingAction {
  action: TaskAction;
  /** The user a transfer or delegation hands the task to. */
  userId?: string;
}

/** How the page ended the task: the outcome its success message names. */
export type TaskOutcome = 'approved' | 'rejected' | 'transferred' | 'delegated';

export interface TaskContext {
  taskId: string;
  processInstanceId: string;
  /** The comment box: kept through failures and retries, sent with every action but the claim. */
  comment: string;
  pending?: PendingAction;
  /** The caller holds the task (it was theirs when loaded, or the claim succeeded): where a failure returns to. */
  claimed: boolean;
  /** The last refusal or failure, as the server or the request layer said it; cleared by the next action. */
  error?: string;
  outcome?: TaskOutcome;
}

export interface TaskInput {
  taskId: string;
  processInstanceId: string;
  /** A comment the page had already (typed before the task's detail arrived). */
  comment?: string;
}

export type TaskEvent =
  /** The task's detail (work/task-detail): whose it is now. `mine`: the caller is its assignee. */
  | { type: 'task.loaded'; status: FlowTask['status']; mine: boolean }
  /** The detail could not be read (gone, or not the caller's to see): the message says why. */
  | { type: 'task.missing'; message: string }
  | { type: 'comment.change'; comment: string }
  | { type: 'task.claim' }
  | { type: 'task.approve' }
  | { type: 'task.reject' }
  | { type: 'task.transfer'; userId: string }
  | { type: 'task.delegate'; userId: string }
  /** After a network failure: the same action again, with the comment as it is now. */
  | { type: 'task.retry' }
  /** After a network failure: back to the buttons without retrying. */
  | { type: 'task.dismiss' };

/** What an actor's failure means for the task. */
export type TaskFailure =
  | { kind: 'claimedByOther'; message: string }
  | { kind: 'alreadyDone'; message: string }
  /** The call may not have arrived (no answer, a time-out, a gateway's error): worth retrying as it was. */
  | { kind: 'network'; message: string }
  /** The server answered no for another reason (not a candidate, a bad user…): its message is shown. */
  | { kind: 'refused'; message: string };

/** The server's message in either language of its envelope (resources/messages-en.ts). */
const saidAs = (chinese: string) => [chinese, EN[chinese]].filter((m): m is string => typeof m === 'string');
const CLAIMED_BY_OTHER = saidAs(FLOW_MESSAGES.claimedByOther);
/** Whether a message is the server's plain `任务已办结`, in either language (not one saying what stands). */
export const isPlainAlreadyDone = (message: string | undefined) => message !== undefined && saidAs(FLOW_MESSAGES.alreadyDone).includes(message);
/** The task is done: by someone else, or by the caller's own earlier submit that said the other thing. */
const ALREADY_DONE = [FLOW_MESSAGES.alreadyDone, FLOW_MESSAGES.alreadyApproved, FLOW_MESSAGES.alreadyRejected].flatMap(saidAs);
/** The request layer's own messages when no answer came (src/api/http.ts NETWORK_ERROR, TIMEOUT_ERROR). */
const NO_ANSWER = ['网络异常', '请求超时'];

/**
 * Reads a failed call (a RequestError of src/api/http.ts: a message and the code that decided it; code 0 or above 500
 * when no handler answered). Anything thrown without a code never reached the server either.
 */
export function failureOf(error: unknown): TaskFailure {
  const message = error instanceof Error ? error.message : String(error ?? '');
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number' ? error.code : undefined;
  if (CLAIMED_BY_OTHER.includes(message)) return { kind: 'claimedByOther', message };
  if (ALREADY_DONE.includes(message)) return { kind: 'alreadyDone', message };
  if (code === undefined || code === 0 || code > 500 || NO_ANSWER.includes(message)) return { kind: 'network', message };
  return { kind: 'refused', message };
}

/** The outcome of a successful action. */
const OUTCOME: Record<Exclude<TaskAction, 'claim'>, TaskOutcome> = {
  approve: 'approved',
  reject: 'rejected',
  transfer: 'transferred',
  delegate: 'delegated',
};

/** After a success, the page stays this long (its message read) before going back to the list. */
export const LEAVE_DELAY_MS = 1500;

/** The error of an actor's failure event (typed by setup as the machine's own events). */
const errorOf = (event: unknown): unknown => (typeof event === 'object' && event !== null && 'error' in event ? event.error : undefined);

/**
 * Where a failed call leads: someone else's claim and a finished task end the page's part; a network failure waits
 * for a retry with everything kept; a refusal returns to `back` with its message.
 */
const failureTransitions = (back: 'unclaimed' | 'ready') =>
  [
    { guard: { type: 'failedAs', params: 'claimedByOther' }, target: 'claimedByOther', actions: 'rememberFailure' },
    { guard: { type: 'failedAs', params: 'alreadyDone' }, target: 'done', actions: 'rememberFailure' },
    { guard: { type: 'failedAs', params: 'network' }, target: 'failed', actions: 'rememberFailure' },
    { target: back, actions: ['rememberFailure', 'forgetPending'] },
  ] as const;

export const taskMachine = setup({
  types: { context: {} as TaskContext, events: {} as TaskEvent, input: {} as TaskInput },
  actors: {
    claim: fromPromise<void, { taskId: string }>(async () => {
      throw new Error('claim is not provided');
    }),
    complete: fromPromise<void, CompleteTaskBody>(async () => {
      throw new Error('complete is not provided');
    }),
    transfer: fromPromise<void, HandOverBody>(async () => {
      throw new Error('transfer is not provided');
    }),
    delegate: fromPromise<void, HandOverBody>(async () => {
      throw new Error('delegate is not provided');
    }),
  },
  actions: {
    /** 签收成功: the page reads the task again (now the caller's). */
    claimed: () => {},
    /** 办理成功 / 驳回成功 / 转办成功 / 委派成功, by the context's outcome. */
    finished: () => {},
    /** Back to the list the task came from (the page's tab closes). */
    leave: () => {},
    rememberFailure: assign({ error: ({ event }) => failureOf(errorOf(event)).message }),
    forgetPending: assign({ pending: undefined }),
  },
  guards: {
    loadedAs: ({ event }, expected: { status: FlowTask['status']; mine?: boolean }) =>
      event.type === 'task.loaded' && event.status === expected.status && (expected.mine === undefined || event.mine === expected.mine),
    hasUser: (_, userId: string) => userId.trim().length > 0,
    pendingIs: ({ context }, action: TaskAction) => context.pending?.action === action,
    wasClaimed: ({ context }) => context.claimed,
    failedAs: ({ event }, kind: TaskFailure['kind']) => failureOf(errorOf(event)).kind === kind,
  },
  delays: { leave: LEAVE_DELAY_MS },
}).createMachine({
  id: 'task',
  context: ({ input }) => ({ taskId: input.taskId, processInstanceId: input.processInstanceId, comment: input.comment ?? '', claimed: false }),
  initial: 'loading',
  on: {
    'comment.change': { actions: assign({ comment: ({ event }) => event.comment }) },
  },
  states: {
    loading: {
      on: {
        'task.loaded': [
          { guard: { type: 'loadedAs', params: { status: 'finished' } }, target: 'done' },
          { guard: { type: 'loadedAs', params: { status: 'claim' } }, target: 'unclaimed' },
          { guard: { type: 'loadedAs', params: { status: 'todo', mine: true } }, target: 'ready', actions: assign({ claimed: true }) },
          // Held by someone else: delegated onwards by the caller, or claimed by another candidate meanwhile.
          { target: 'heldByOther' },
        ],
        'task.missing': { target: 'unavailable', actions: assign({ error: ({ event }) => event.message }) },
      },
    },
    unclaimed: {
      on: {
        'task.claim': { target: 'claiming', actions: assign({ pending: { action: 'claim' }, error: undefined }) },
      },
    },
    claiming: {
      invoke: {
        src: 'claim',
        input: ({ context }) => ({ taskId: context.taskId }),
        onDone: { target: 'ready', actions: [assign({ claimed: true, pending: undefined, error: undefined }), 'claimed'] },
        onError: failureTransitions('unclaimed'),
      },
    },
    ready: {
      on: {
        'task.approve': { target: 'completing', actions: assign({ pending: { action: 'approve' }, error: undefined }) },
        'task.reject': { target: 'completing', actions: assign({ pending: { action: 'reject' }, error: undefined }) },
        'task.transfer': {
          guard: { type: 'hasUser', params: ({ event }) => event.userId },
          target: 'transferring',
          actions: assign({ pending: ({ event }) => ({ action: 'transfer' as const, userId: event.userId }), error: undefined }),
        },
        'task.delegate': {
          guard: { type: 'hasUser', params: ({ event }) => event.userId },
          target: 'delegating',
          actions: assign({ pending: ({ event }) => ({ action: 'delegate' as const, userId: event.userId }), error: undefined }),
        },
      },
    },
    completing: {
      invoke: {
        src: 'complete',
        input: ({ context }) => {
          const comment = context.comment.trim();
          return {
            taskId: context.taskId,
            processInstanceId: context.processInstanceId,
            pass: context.pending?.action !== 'reject',
            ...(comment ? { comment } : {}),
          };
        },
        onDone: { target: 'finished', actions: assign({ outcome: ({ context }) => (context.pending?.action === 'reject' ? 'rejected' : 'approved') }) },
        onError: failureTransitions('ready'),
      },
    },
    transferring: {
      invoke: {
        src: 'transfer',
        input: ({ context }) => handOverOf(context),
        onDone: { target: 'finished', actions: assign({ outcome: OUTCOME.transfer }) },
        onError: failureTransitions('ready'),
      },
    },
    delegating: {
      invoke: {
        src: 'delegate',
        input: ({ context }) => handOverOf(context),
        onDone: { target: 'finished', actions: assign({ outcome: OUTCOME.delegate }) },
        onError: failureTransitions('ready'),
      },
    },
    /** A network failure: nothing is lost; the user retries the same action or goes back to the buttons. */
    failed: {
      on: {
        'task.retry': [
          { guard: { type: 'pendingIs', params: 'claim' }, target: 'claiming', actions: assign({ error: undefined }) },
          { guard: { type: 'pendingIs', params: 'approve' }, target: 'completing', actions: assign({ error: undefined }) },
          { guard: { type: 'pendingIs', params: 'reject' }, target: 'completing', actions: assign({ error: undefined }) },
          { guard: { type: 'pendingIs', params: 'transfer' }, target: 'transferring', actions: assign({ error: undefined }) },
          { guard: { type: 'pendingIs', params: 'delegate' }, target: 'delegating', actions: assign({ error: undefined }) },
        ],
        'task.dismiss': [
          { guard: 'wasClaimed', target: 'ready', actions: assign({ pending: undefined, error: undefined }) },
          { target: 'unclaimed', actions: assign({ pending: undefined, error: undefined }) },
        ],
      },
    },
    /** The caller's action went through: its message, then back to the list. */
    finished: {
      entry: 'finished',
      after: { leave: { target: 'left', actions: 'leave' } },
    },
    left: { type: 'final' },
    /** Someone else claimed the task first (任务已被他人签收): nothing left to do here. */
    claimedByOther: { type: 'final' },
    /** Held by another user (a delegate, or a candidate who claimed it before the page loaded). */
    heldByOther: { type: 'final' },
    /** Already done (任务已办结), whether found so on loading or told so by the server. */
    done: { type: 'final' },
    /** The task cannot be read (gone, not the caller's). */
    unavailable: { type: 'final' },
  },
});

function handOverOf(context: TaskContext): HandOverBody {
  const comment = context.comment.trim();
  return { taskId: context.taskId, userId: context.pending?.userId ?? '', ...(comment ? { comment } : {}) };
}

/** States in which a call is on its way: the page's buttons show it and take no second click. */
export const BUSY_STATES = ['claiming', 'completing', 'transferring', 'delegating'] as const;
