import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { LiveAlarm } from '../resources/wire/alarms';

/** One entry of the notice centre (spec §3 "Notice"): an unhandled alarm or an unread station notice. */
export interface Notice {
  id: string;
  title: string;
  category?: number;
  categoryName?: string;
  releaseTime?: string;
  readFlag?: number;
  content?: string | null;
  noticeId?: string;
  href?: string;
  /** The alarm level of an alarm notice (its colour). */
  alarmType?: number;
}

/** GET wit-xinde/alarm/getNoticeInfo (spec §3 "Notice summary response"; `sound` is our addition). */
export interface NoticeSummary {
  alarmNotices: Notice[];
  alarmNum: number;
  stationNotices: Notice[];
  /** 1: the user hears the console alarm sound. */
  sound?: number;
}

export type NoticeTab = 'alarm' | 'station';

export interface NoticeCentreContext {
  summary: NoticeSummary;
  /** The tab shown in the popover. */
  tab: NoticeTab;
  /** The tab the user picked last; it wins over the default choice. */
  chosen?: NoticeTab;
  sound: boolean;
  loaded: boolean;
}

export interface NoticeCentreInput {
  chosen?: NoticeTab;
}

export type NoticeCentreEvent =
  /** Load again: the console's tab changed, the popover opened, a reconnect may have missed alarms. */
  | { type: 'notice.refresh' }
  | { type: 'notice.chooseTab'; tab: NoticeTab }
  | { type: 'notice.alarm'; alarm: LiveAlarm }
  | { type: 'notice.sound'; on: boolean };

/** Spec §9 "Timers": the notice centre reloads every 6 hours. */
export const NOTICE_REFRESH_MS = 21_600_000;
/** Spec §9 "Display limits": alarm badge max 99. */
export const ALARM_BADGE_MAX = 99;

export const EMPTY_SUMMARY: NoticeSummary = { alarmNotices: [], alarmNum: 0, stationNotices: [] };

/** The bell's badge: the alarm count (99+ beyond 99), a dot when only station notices wait, nothing otherwise. */
export function bellBadge(summary: NoticeSummary): { kind: 'count'; text: string } | { kind: 'dot' } | undefined {
  if (summary.alarmNum > 0) return { kind: 'count', text: summary.alarmNum > ALARM_BADGE_MAX ? `${ALARM_BADGE_MAX}+` : String(summary.alarmNum) };
  if (summary.stationNotices.length > 0) return { kind: 'dot' };
  return undefined;
}

/** The tab shown after a load: the one chosen, else alarms, else station notices when only those exist. */
export function tabOf(summary: NoticeSummary, chosen: NoticeTab | undefined): NoticeTab {
  if (chosen) return chosen;
  return summary.alarmNotices.length === 0 && summary.stationNotices.length > 0 ? 'station' : 'alarm';
}

/** A live alarm as an alarm notice, so the badge and list move before the reload answers. */
export function withLiveAlarm(summary: NoticeSummary, alarm: LiveAlarm): NoticeSummary {
  const known = summary.alarmNotices.some((n) => n.id === alarm.alarmId);
  const entry: Notice = {
    id: alarm.alarmId,
    noticeId: alarm.alarmId,
    title: alarm.title,
    content: alarm.content,
    category: 8,
    alarmType: alarm.alarmLevel,
    releaseTime: alarm.time,
    readFlag: 0,
    href: alarm.href,
  };
  return {
    ...summary,
    alarmNotices: [entry, ...summary.alarmNotices.filter((n) => n.id !== alarm.alarmId)],
    alarmNum: known ? summary.alarmNum : summary.alarmNum + 1,
  };
}

/** Alarm levels an operator must not miss: 1 red and 2 orange (docs/alarms.md). */
export const URGENT_LEVELS: readonly number[] = [1, 2];
/** alarmState of a cleared alarm. */
const CLEARED = 2;

/** How a live alarm is announced beyond the badge: a toast for red and orange open alarms, with a sound unless muted. */
export function alarmAlert(alarm: LiveAlarm, soundOn: boolean): { toast: boolean; sound: boolean } {
  const urgent = URGENT_LEVELS.includes(alarm.alarmLevel) && alarm.alarmState !== CLEARED;
  return { toast: urgent, sound: urgent && soundOn };
}

/**
 * The notice centre of the top bar (spec §4 "Notice centre"): loads the summary at start, every 6 hours and on
 * request (tab changes), keeps the user's chosen popover tab, and folds live alarms in at once (then reloads, so
 * the list is the server's). A red or orange live alarm shows a toast and plays the sound when the user has it on
 * (alarmAlert).
 */
export const noticeCentreMachine = setup({
  types: { context: {} as NoticeCentreContext, events: {} as NoticeCentreEvent, input: {} as NoticeCentreInput },
  actors: {
    load: fromPromise<NoticeSummary>(async () => {
      throw new Error('load is not provided');
    }),
  },
  actions: {
    /** Remembers the chosen tab; app-provided. */
    persist: () => {},
    /** Plays the alarm sound; app-provided. */
    playSound: () => {},
    /** Shows the alarm's toast; app-provided. */
    showAlarm: (_, _alarm: LiveAlarm) => {},
    /** Stores the user's sound switch on the server; app-provided. */
    saveSound: (_, _on: boolean) => {},
    foldAlarm: assign({
      summary: ({ context, event }) => (event.type === 'notice.alarm' ? withLiveAlarm(context.summary, event.alarm) : context.summary),
    }),
  },
  delays: { refresh: NOTICE_REFRESH_MS },
}).createMachine({
  id: 'noticeCentre',
  context: ({ input }) => ({ summary: EMPTY_SUMMARY, tab: input.chosen ?? 'alarm', chosen: input.chosen, sound: true, loaded: false }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: {
          target: 'idle',
          actions: assign(({ context, event }) => ({
            summary: event.output,
            tab: tabOf(event.output, context.chosen),
            sound: event.output.sound === undefined ? context.sound : Number(event.output.sound) === 1,
            loaded: true,
          })),
        },
        // A failed load keeps what is shown; the request layer has told the user, the timer tries again.
        onError: 'idle',
      },
    },
    idle: {
      after: { refresh: 'loading' },
    },
  },
  on: {
    'notice.refresh': { target: '.loading', reenter: true },
    'notice.chooseTab': { actions: [assign({ tab: ({ event }) => event.tab, chosen: ({ event }) => event.tab }), 'persist'] },
    'notice.alarm': {
      target: '.loading',
      reenter: true,
      actions: [
        'foldAlarm',
        enqueueActions(({ context, event, enqueue }) => {
          const alert = alarmAlert(event.alarm, context.sound);
          if (alert.toast) enqueue({ type: 'showAlarm', params: event.alarm });
          if (alert.sound) enqueue('playSound');
        }),
      ],
    },
    'notice.sound': {
      actions: [assign({ sound: ({ event }) => event.on }), { type: 'saveSound', params: ({ event }) => event.on }],
    },
  },
});
