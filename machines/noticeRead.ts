import { assign, fromPromise, setup } from 'xstate';

/** A row of the notice list as far as its read state goes (spec §3 "Notice": readFlag 0 unread, 1 read). */
export interface ReadRow {
  id: string;
  readFlag?: number | string | null;
}

export const isUnread = (row: ReadRow): boolean => Number(row.readFlag ?? 0) !== 1;

export interface NoticeReadContext {
  /** The notices being marked. */
  ids: string[];
  /** Marked from a row (setRead) rather than the toolbar (batchSetRead). */
  single: boolean;
}

export type NoticeReadEvent =
  /** 'mark as read' on one row (shown only on unread rows). */
  | { type: 'read.mark'; row: ReadRow }
  /** 'mark all as read': every unread row of the current page. */
  | { type: 'read.markAll'; rows: readonly ReadRow[] };

export interface MarkInput {
  ids: string[];
  /** One row (setRead) or the page (batchSetRead). */
  single: boolean;
}

/**
 * The notice read state (spec §4 "Notice read state", §5 "Mark all as read"): unread becomes read by marking a row
 * or all unread rows of the current page; nothing goes back. Marking all with no unread row warns; otherwise it
 * asks first. Each mark that succeeds says so and reloads the list.
 */
export const noticeReadMachine = setup({
  types: { context: {} as NoticeReadContext, events: {} as NoticeReadEvent },
  actors: {
    confirm: fromPromise<boolean>(async () => false),
    mark: fromPromise<void, MarkInput>(async () => {
      throw new Error('mark is not provided');
    }),
  },
  actions: {
    /** 没有未读通知。 */
    warnNothingUnread: () => {},
    /** 操作成功! and a reload of the list. */
    marked: () => {},
  },
  guards: {
    rowUnread: (_, row: ReadRow) => isUnread(row),
    someUnread: (_, rows: readonly ReadRow[]) => rows.some(isUnread),
    confirmed: (_, yes: boolean) => yes,
  },
}).createMachine({
  id: 'noticeRead',
  context: { ids: [], single: false },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'read.mark': {
          guard: { type: 'rowUnread', params: ({ event }) => event.row },
          target: 'marking',
          actions: assign({ ids: ({ event }) => [event.row.id], single: true }),
        },
        'read.markAll': [
          {
            guard: { type: 'someUnread', params: ({ event }) => event.rows },
            target: 'confirming',
            actions: assign({ ids: ({ event }) => event.rows.filter(isUnread).map((r) => r.id), single: false }),
          },
          { actions: 'warnNothingUnread' },
        ],
      },
    },
    confirming: {
      invoke: {
        src: 'confirm',
        onDone: [
          { guard: { type: 'confirmed', params: ({ event }) => event.output }, target: 'marking' },
          { target: 'idle', actions: assign({ ids: [] }) },
        ],
        onError: { target: 'idle', actions: assign({ ids: [] }) },
      },
    },
    marking: {
      invoke: {
        src: 'mark',
        input: ({ context }) => ({ ids: context.ids, single: context.single }),
        onDone: { target: 'idle', actions: ['marked', assign({ ids: [] })] },
        // The request layer has shown the failure; the rows stay unread.
        onError: { target: 'idle', actions: assign({ ids: [] }) },
      },
    },
  },
});
