import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import type { LiveAlarm } from '../resources/wire/alarms';
import { liveAlarm } from '../tests/support/alarms';
import { alarmAlert, bellBadge, NOTICE_REFRESH_MS, type Notice, type NoticeCentreInput, noticeCentreMachine, type NoticeSummary } from './noticeCentre';

const notice = (id: string): Notice => ({ id, title: `n${id}` });
const summary = (alarms: number, stations: number, extra: Partial<NoticeSummary> = {}): NoticeSummary => ({
  alarmNotices: Array.from({ length: alarms }, (_, i) => notice(`a${i}`)),
  alarmNum: alarms,
  stationNotices: Array.from({ length: stations }, (_, i) => notice(`s${i}`)),
  ...extra,
});
const alarm = (id: string, level = 1) => liveAlarm(id, { alarmLevel: level });

/** The machine with a load answering the queued summaries one after another (the last one repeats). */
function harness(answers: NoticeSummary[], input: NoticeCentreInput = {}) {
  const clock = new SimulatedClock();
  const loads = vi.fn();
  let pending: Array<() => void> = [];
  const spies = { persist: vi.fn(), playSound: vi.fn(), saveSound: vi.fn(), showAlarm: vi.fn() };
  const machine = noticeCentreMachine.provide({
    actors: {
      load: fromPromise<NoticeSummary>(() => {
        loads();
        const answer = answers.length > 1 ? answers.shift()! : answers[0];
        return new Promise((resolve) => pending.push(() => resolve(answer)));
      }),
    },
    actions: {
      persist: spies.persist,
      playSound: spies.playSound,
      saveSound: (_, on: boolean) => spies.saveSound(on),
      showAlarm: (_, live: LiveAlarm) => spies.showAlarm(live.alarmId),
    },
  });
  const actor = createActor(machine, { input, clock }).start();
  const answer = async () => {
    const run = pending;
    pending = [];
    for (const resolve of run) resolve();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { actor, clock, loads, spies, answer, context: () => actor.getSnapshot().context };
}

describe('notice centre machine', () => {
  it('loads at start and shows the alarm tab by default', async () => {
    const h = harness([summary(2, 1)]);
    expect(h.loads).toHaveBeenCalledOnce();
    await h.answer();
    expect(h.context().summary.alarmNum).toBe(2);
    expect(h.context().tab).toBe('alarm');
    expect(h.actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('shows the station tab when there are only station notices', async () => {
    const h = harness([summary(0, 3)]);
    await h.answer();
    expect(h.context().tab).toBe('station');
  });

  it('keeps the alarm tab when there is nothing at all', async () => {
    const h = harness([summary(0, 0)]);
    await h.answer();
    expect(h.context().tab).toBe('alarm');
  });

  it('remembers the chosen tab over the default, across loads and from storage', async () => {
    const h = harness([summary(2, 1)]);
    await h.answer();
    h.actor.send({ type: 'notice.chooseTab', tab: 'station' });
    expect(h.spies.persist).toHaveBeenCalledOnce();
    h.actor.send({ type: 'notice.refresh' });
    await h.answer();
    expect(h.context().tab).toBe('station');
    const restored = harness([summary(0, 2)], { chosen: 'alarm' });
    await restored.answer();
    expect(restored.context().tab).toBe('alarm');
  });

  it('reloads every 6 hours and on request', async () => {
    const h = harness([summary(1, 0)]);
    await h.answer();
    h.clock.increment(NOTICE_REFRESH_MS - 1);
    expect(h.loads).toHaveBeenCalledTimes(1);
    h.clock.increment(1);
    expect(h.loads).toHaveBeenCalledTimes(2);
    await h.answer();
    h.actor.send({ type: 'notice.refresh' });
    expect(h.loads).toHaveBeenCalledTimes(3);
    await h.answer();
    // A request restarts the 6-hour wait.
    h.clock.increment(NOTICE_REFRESH_MS - 1);
    expect(h.loads).toHaveBeenCalledTimes(3);
  });

  it('keeps what it shows when a load fails, and tries again with the timer', async () => {
    const clock = new SimulatedClock();
    let calls = 0;
    const machine = noticeCentreMachine.provide({
      actors: {
        load: fromPromise<NoticeSummary>(async () => {
          calls++;
          if (calls === 2) throw new Error('down');
          return summary(calls, 0);
        }),
      },
    });
    const actor = createActor(machine, { input: {}, clock }).start();
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'notice.refresh' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.summary.alarmNum).toBe(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    clock.increment(NOTICE_REFRESH_MS);
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.summary.alarmNum).toBe(3);
  });

  it('folds a live alarm in at once, plays the sound and reloads', async () => {
    const h = harness([summary(1, 0, { sound: 1 }), summary(2, 0, { sound: 1 })]);
    await h.answer();
    h.actor.send({ type: 'notice.alarm', alarm: alarm('9') });
    expect(h.context().summary.alarmNum).toBe(2);
    expect(h.context().summary.alarmNotices[0]).toMatchObject({ id: '9', href: '/xinde/alarm?id=9', alarmType: 1 });
    expect(h.spies.playSound).toHaveBeenCalledOnce();
    expect(h.loads).toHaveBeenCalledTimes(2);
    // An escalation of a known alarm moves it to the top without counting it twice.
    h.actor.send({ type: 'notice.alarm', alarm: { ...alarm('9', 2), revision: 2 } });
    expect(h.context().summary.alarmNum).toBe(2);
    expect(h.context().summary.alarmNotices.filter((n) => n.id === '9')).toHaveLength(1);
    await h.answer();
    expect(h.context().summary.alarmNum).toBe(2);
  });

  it('stays silent when the user switched the sound off, and saves the switch', async () => {
    const h = harness([summary(0, 0, { sound: 0 })]);
    await h.answer();
    expect(h.context().sound).toBe(false);
    h.actor.send({ type: 'notice.alarm', alarm: alarm('1') });
    expect(h.spies.playSound).not.toHaveBeenCalled();
    h.actor.send({ type: 'notice.sound', on: true });
    expect(h.spies.saveSound).toHaveBeenCalledWith(true);
    h.actor.send({ type: 'notice.alarm', alarm: alarm('2') });
    expect(h.spies.playSound).toHaveBeenCalledOnce();
  });
});

describe('alarmAlert', () => {
  it('toasts red (1) and orange (2) open alarms, with the sound unless muted; yellow and blue only move the badge', () => {
    for (const level of [1, 2]) {
      expect(alarmAlert(alarm('x', level), true)).toEqual({ toast: true, sound: true });
      expect(alarmAlert(alarm('x', level), false)).toEqual({ toast: true, sound: false });
    }
    for (const level of [3, 4]) expect(alarmAlert(alarm('x', level), true)).toEqual({ toast: false, sound: false });
    expect(alarmAlert({ ...alarm('x', 1), alarmState: 2 }, true)).toEqual({ toast: false, sound: false });
  });

  it('the centre shows the toast and plays the sound as decided', async () => {
    const h = harness([summary(0, 0, { sound: 1 })]);
    await h.answer();
    h.actor.send({ type: 'notice.alarm', alarm: alarm('r', 1) });
    h.actor.send({ type: 'notice.alarm', alarm: alarm('y', 3) });
    expect(h.spies.showAlarm.mock.calls).toEqual([['r']]);
    expect(h.spies.playSound).toHaveBeenCalledOnce();
    h.actor.send({ type: 'notice.sound', on: false });
    h.actor.send({ type: 'notice.alarm', alarm: alarm('o', 2) });
    expect(h.spies.showAlarm.mock.calls).toEqual([['r'], ['o']]);
    expect(h.spies.playSound).toHaveBeenCalledOnce();
  });
});

describe('bellBadge', () => {
  it('counts alarms up to 99, then 99+; a dot for station notices only; nothing otherwise', () => {
    expect(bellBadge(summary(3, 1))).toEqual({ kind: 'count', text: '3' });
    expect(bellBadge({ ...summary(0, 0), alarmNum: 99 })).toEqual({ kind: 'count', text: '99' });
    expect(bellBadge({ ...summary(0, 0), alarmNum: 100 })).toEqual({ kind: 'count', text: '99+' });
    expect(bellBadge(summary(0, 2))).toEqual({ kind: 'dot' });
    expect(bellBadge(summary(0, 0))).toBeUndefined();
  });
});
