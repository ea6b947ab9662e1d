import { describe, expect, it } from 'vitest';
import { alarmWords, type Held, hasRate, judge, rateOf, type Rule, ruleOf, ruleProblem, transition } from '../../server/alarms/evaluate';
import { silenceEnd } from '../../server/alarms/silence';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Settlement in mm: blue 10, yellow 20, orange 30, red 40 (and -10 … -40 below), a 1 mm band. */
const settlement: Rule = ruleOf({
  level1Upper: 40,
  level2Upper: 30,
  level3Upper: 20,
  level4Upper: 10,
  level1Lower: -40,
  level4Lower: -10,
  hysteresis: 1,
});

/** Feeds values through judge + transition like the engine does, returning the level after each and the actions. */
function run(rule: Rule, values: number[], rates: Array<number | undefined> = []): { levels: Held[]; actions: string[] } {
  let held: Held = 0;
  const levels: Held[] = [];
  const actions: string[] = [];
  values.forEach((value, i) => {
    const change = transition(held, judge(rule, value, rates[i], held));
    actions.push(change.action);
    if (change.action === 'raise' || change.action === 'escalate' || change.action === 'deescalate') held = change.level;
    if (change.action === 'clear') held = 0;
    levels.push(held);
  });
  return { levels, actions };
}

describe('threshold levels', () => {
  it('reaches the most severe level whose bound the value is past', () => {
    expect(judge(settlement, 5, undefined, 0)).toEqual({ level: 0 });
    expect(judge(settlement, 10, undefined, 0)).toEqual({ level: 0 }); // at the bound is not past it
    expect(judge(settlement, 10.5, undefined, 0)).toEqual({ level: 4, kind: 'upper', limit: 10 });
    expect(judge(settlement, 25, undefined, 0)).toEqual({ level: 3, kind: 'upper', limit: 20 });
    expect(judge(settlement, 45, undefined, 0)).toEqual({ level: 1, kind: 'upper', limit: 40 });
    expect(judge(settlement, -10, undefined, 0)).toEqual({ level: 0 }); // nor at the lower one
    expect(judge(settlement, -12, undefined, 0)).toEqual({ level: 4, kind: 'lower', limit: -10 });
    expect(judge(settlement, -41, undefined, 0)).toEqual({ level: 1, kind: 'lower', limit: -40 });
  });

  it('reads a blank limit as no limit, and 0 as a limit', () => {
    const rule = ruleOf({ level1Upper: '', level2Upper: 5, level2Lower: 0, hysteresis: '' });
    expect(rule.levels).toEqual({ 2: { upper: 5, lower: 0, rate: undefined } });
    expect(rule.hysteresis).toBe(0);
    expect(judge(rule, 6, undefined, 0)).toEqual({ level: 2, kind: 'upper', limit: 5 });
    expect(judge(rule, -0.5, undefined, 0)).toEqual({ level: 2, kind: 'lower', limit: 0 });
  });

  it('skips levels that are not set', () => {
    const redOnly = ruleOf({ level1Upper: 5 });
    expect(judge(redOnly, 4, undefined, 0).level).toBe(0);
    expect(judge(redOnly, 6, undefined, 0)).toEqual({ level: 1, kind: 'upper', limit: 5 });
  });
});

describe('hysteresis', () => {
  it('keeps a level until the value is back past the band, so a value hovering at a bound does not flap', () => {
    const { levels, actions } = run(settlement, [10.2, 9.8, 10.3, 9.5, 9.1, 8.9, 9.5, 10.1]);
    expect(levels).toEqual([4, 4, 4, 4, 4, 0, 0, 4]);
    expect(actions).toEqual(['raise', 'none', 'none', 'none', 'none', 'clear', 'none', 'raise']);
  });

  it('applies the band to lower bounds too', () => {
    expect(run(settlement, [-10.5, -9.5, -8.9]).levels).toEqual([4, 4, 0]);
  });

  it('needs the full crossing to enter a more severe level', () => {
    expect(run(settlement, [15, 19.5, 20.2]).levels).toEqual([4, 4, 3]);
  });
});

describe('escalation and de-escalation', () => {
  it('escalates step by step or straight to red, and de-escalates through the bands', () => {
    const { levels, actions } = run(settlement, [12, 22, 45, 39.5, 38.9, 28, 19.2, 18.9, 9.2, 8.5]);
    expect(levels).toEqual([4, 3, 1, 1, 2, 3, 3, 4, 4, 0]);
    expect(actions).toEqual(['raise', 'escalate', 'escalate', 'none', 'deescalate', 'deescalate', 'none', 'deescalate', 'none', 'clear']);
  });

  it('clears at once when the value falls from a severe level below every band', () => {
    expect(run(settlement, [45, 0]).actions).toEqual(['raise', 'clear']);
  });
});

describe('rate of change', () => {
  it('is the change per period between the reference reading and the current one', () => {
    expect(rateOf({ ts: 2 * DAY, value: 7 }, { ts: 0, value: 1 }, DAY)).toBe(3);
    expect(rateOf({ ts: HOUR, value: 0.5 }, { ts: 0, value: 1 }, HOUR)).toBe(-0.5);
    expect(rateOf({ ts: HOUR, value: 1 }, undefined, HOUR)).toBeUndefined();
    expect(rateOf({ ts: HOUR, value: 1 }, { ts: HOUR, value: 0 }, HOUR)).toBeUndefined();
  });

  it('raises on the absolute rate, with its own band', () => {
    const rule = ruleOf({ level2Rate: 5, level4Rate: 2, rateHysteresis: 0.5, ratePeriod: 1 });
    expect(rule.periodMs).toBe(HOUR);
    expect(judge(rule, 100, 1, 0)).toEqual({ level: 0 });
    expect(judge(rule, 100, -2.5, 0)).toEqual({ level: 4, kind: 'rate', limit: 2 });
    expect(judge(rule, 100, 6, 0)).toEqual({ level: 2, kind: 'rate', limit: 5 });
    expect(judge(rule, 100, 2, 0)).toEqual({ level: 0 }); // at the limit is not past it
    expect(judge(rule, 100, -2, 0)).toEqual({ level: 0 });
    expect(judge(rule, 100, undefined, 0)).toEqual({ level: 0 }); // a young series has no rate yet
    expect(run(rule, [0, 0, 0, 0], [2.2, 1.7, 1.4, 5.1]).levels).toEqual([4, 4, 0, 2]);
  });

  it('is looked up only for rules with a rate limit at some level', () => {
    expect(hasRate(ruleOf({ level1Upper: 40, level3Rate: 2 }))).toBe(true);
    expect(hasRate(ruleOf({ level2Rate: 1 }))).toBe(true);
    expect(hasRate(settlement)).toBe(false);
  });

  it('measures per day unless told per hour', () => {
    expect(ruleOf({ level1Rate: 3 }).periodMs).toBe(DAY);
  });
});

describe('rule checks', () => {
  it('refuses empty and disordered rules with a message', () => {
    expect(ruleProblem(ruleOf({}))).toBe('请至少设置一个等级的上限、下限或变化速率');
    expect(ruleProblem(ruleOf({ level1Upper: 10, level2Upper: 20 }))).toBe('上限应随等级递减:1级(红色)上限最大');
    expect(ruleProblem(ruleOf({ level1Lower: -5, level3Lower: -10 }))).toBe('下限应随等级递增:1级(红色)下限最小');
    expect(ruleProblem(ruleOf({ level2Rate: 1, level3Rate: 2 }))).toBe('变化速率阈值应随等级递减:1级(红色)最大');
    expect(ruleProblem(ruleOf({ level3Upper: 1, level3Lower: 2 }))).toBe('3级告警的下限应小于上限');
    expect(ruleProblem(ruleOf({ level3Upper: 2, level3Lower: 2 }))).toBe('3级告警的下限应小于上限');
    expect(ruleProblem(settlement)).toBeUndefined();
  });

  it('refuses two levels with the same limit: the more severe one could never be reached first', () => {
    expect(ruleProblem(ruleOf({ level1Upper: 20, level2Upper: 20 }))).toBe('上限应随等级递减:1级(红色)上限最大');
    expect(ruleProblem(ruleOf({ level2Lower: -5, level4Lower: -5 }))).toBe('下限应随等级递增:1级(红色)下限最小');
    expect(ruleProblem(ruleOf({ level1Rate: 3, level4Rate: 3 }))).toBe('变化速率阈值应随等级递减:1级(红色)最大');
  });

  it('compares the levels that set a limit, across a level that sets only another kind', () => {
    expect(ruleProblem(ruleOf({ level1Upper: 10, level2Lower: -5, level3Upper: 20 }))).toBe('上限应随等级递减:1级(红色)上限最大');
    expect(ruleProblem(ruleOf({ level1Upper: 30, level2Lower: -5, level3Upper: 20 }))).toBeUndefined();
  });
});

describe('alarm words', () => {
  const channel = { device: '北桥墩', code: 'D-01', point: 'settlement', unit: 'mm' };

  it('names the device, the level and the limit crossed, in the words of the console', () => {
    expect(alarmWords(channel, 2, 'upper', 30, 31.25, undefined)).toEqual({
      title: '北桥墩(D-01) settlement 橙色告警',
      content: '北桥墩(D-01) settlement: 测值 31.25mm 超过上限 30mm',
      unit: 'mm',
    });
    expect(alarmWords(channel, 4, 'lower', -10, -10.5, undefined).content).toBe('北桥墩(D-01) settlement: 测值 -10.5mm 低于下限 -10mm');
    expect(alarmWords(channel, 1, 'rate', 3, 7, -3.5).content).toBe('北桥墩(D-01) settlement: 变化速率 -3.5 超过 红色阈值 3');
  });

  it('rounds away binary noise, and names a device without a name by its code', () => {
    const unnamed = { device: null, code: 'D-02', point: 'tilt', unit: '' };
    expect(alarmWords(unnamed, 3, 'upper', 0.3, 0.1 + 0.2 + 1e-12, undefined)).toEqual({
      title: 'D-02(D-02) tilt 黄色告警',
      content: 'D-02(D-02) tilt: 测值 0.3 超过上限 0.3',
      unit: null,
    });
  });
});

describe('silence windows', () => {
  const at = (h: number, m = 0) => new Date(2026, 0, 10, h, m);

  it('holds messages until the end of a window that wraps past midnight', () => {
    expect(silenceEnd(at(23), '22:00', '07:00')).toEqual(new Date(2026, 0, 11, 7, 0));
    expect(silenceEnd(at(3), '22:00', '07:00')).toEqual(new Date(2026, 0, 10, 7, 0));
    expect(silenceEnd(at(7), '22:00', '07:00')).toBeUndefined();
    expect(silenceEnd(at(22), '22:00', '07:00')).toEqual(new Date(2026, 0, 11, 7, 0)); // from its first minute
    expect(silenceEnd(at(21, 59), '22:00', '07:00')).toBeUndefined();
    expect(silenceEnd(at(12), '22:00', '07:00')).toBeUndefined();
  });

  it('handles a window within one day, and no window', () => {
    expect(silenceEnd(at(12, 30), '12:00', '13:30')).toEqual(new Date(2026, 0, 10, 13, 30));
    expect(silenceEnd(at(14), '12:00', '13:30')).toBeUndefined();
    expect(silenceEnd(at(11), '12:00', '13:30')).toBeUndefined();
    expect(silenceEnd(at(12), '12:00', '13:30')).toEqual(new Date(2026, 0, 10, 13, 30));
    expect(silenceEnd(at(13, 29), '12:30', '13:30')).toEqual(new Date(2026, 0, 10, 13, 30));
    expect(silenceEnd(at(13, 30), '12:30', '13:30')).toBeUndefined(); // its end is outside it
    expect(silenceEnd(at(3), null, '07:00')).toBeUndefined();
    expect(silenceEnd(at(3), '07:00', '07:00')).toBeUndefined();
  });
});
