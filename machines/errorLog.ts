import { assign, fromPromise, setup } from 'xstate';

/** One runtime UI error (spec §3 "Error log"). */
export interface ErrorLogEntry {
  type: string;
  url: string;
  message: string;
  stack: string;
  info: string;
  time: string;
}

export interface ErrorLogContext {
  logs: ErrorLogEntry[];
  /** How many entries the upload under way carries. */
  sending: number;
}

export type ErrorLogEvent =
  | { type: 'errorLog.add'; entry: ErrorLogEntry }
  | { type: 'errorLog.upload' }
  | { type: 'errorLog.clear' };

/** Most entries one upload carries (the server's limit); the rest go with the next upload. */
export const UPLOAD_BATCH = 100;

/** The badge shows the count, capped at 99. */
export const LOG_BADGE_MAX = 99;
export const badgeOf = (count: number): string => (count > LOG_BADGE_MAX ? `${LOG_BADGE_MAX}+` : String(count));

/** Local error logs: appended on every runtime UI error, cleared after an upload or by hand. */
export const errorLogMachine = setup({
  types: { context: {} as ErrorLogContext, events: {} as ErrorLogEvent, input: {} as { logs?: ErrorLogEntry[] } },
  actors: {
    upload: fromPromise<void, ErrorLogEntry[]>(async () => {
      throw new Error('upload is not provided');
    }),
  },
  actions: {
    persist: () => {},
    uploaded: () => {},
    uploadFailed: (_, _error: unknown) => {},
  },
}).createMachine({
  id: 'errorLog',
  context: ({ input }) => ({ logs: input.logs ?? [], sending: 0 }),
  initial: 'idle',
  on: {
    'errorLog.add': { actions: [assign({ logs: ({ context, event }) => [...context.logs, event.entry] }), 'persist'] },
  },
  states: {
    idle: {
      on: {
        'errorLog.upload': 'uploading',
        'errorLog.clear': { actions: [assign({ logs: [] }), 'persist'] },
      },
    },
    uploading: {
      entry: assign({ sending: ({ context }) => Math.min(context.logs.length, UPLOAD_BATCH) }),
      invoke: {
        src: 'upload',
        input: ({ context }) => context.logs.slice(0, context.sending),
        onDone: {
          target: 'idle',
          // Only the uploaded entries go; errors recorded during the upload stay.
          actions: [assign({ logs: ({ context }) => context.logs.slice(context.sending), sending: 0 }), 'persist', 'uploaded'],
        },
        onError: { target: 'idle', actions: { type: 'uploadFailed', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
  },
});

