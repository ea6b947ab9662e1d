import { ALARM_LEVELS, type AlarmLevel, LEVEL_NAMES, RATE_PERIOD } from '../../resources/iot/alarm';

/**
 * Threshold evaluation as pure functions (docs/alarms.md "Rules"): which level a value (and its rate of change)
 * reaches given the level the series already holds, and what that means for its open alarm.
 */

export type Held = AlarmLevel | 0;
export type LimitKind = 'upper' | 'lower' | 'rate';

export interface Limits {
  upper?: number;
  lower?: number;
  /** Largest allowed absolute rate of change per period. */
  rate?: number;
}

export interface Rule {
  levels: Partial<Record<AlarmLevel, Limits>>;
  /** A level is left only when the value is back inside its bound by more than this. */
  hysteresis: number;
  rateHysteresis: number;
  /** The period rates are expressed in (an hour or a day), in milliseconds. */
  periodMs: number;
}

export interface Sample {
  ts: number;
  value: number;
}

/** The level reached, with the kind of limit crossed and that limit; level 0: none. */
export type Verdict = { level: 0 } | { level: AlarmLevel; kind: LimitKind; limit: number };

export type Transition =
  | { action: 'none' }
  | { action: 'raise' | 'escalate' | 'deescalate'; level: AlarmLevel; kind: LimitKind; limit: number }
  | { action: 'clear' };

const HOUR_MS = 3_600_000;
export const periodMsOf = (ratePeriod: unknown): number => (Number(ratePeriod) === RATE_PERIOD.hour ? HOUR_MS : 24 * HOUR_MS);

const finite = (value: unknown): number | undefined => {
  // Number() reads both as 0; undefined it reads as NaN.
  if (value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

/** A threshold row (resources/iot/alarm.ts deviceThreshold) as a rule. */
export function ruleOf(row: Record<string, unknown>): Rule {
  const levels: Rule['levels'] = {};
  for (const level of ALARM_LEVELS) {
    const limits: Limits = { upper: finite(row[`level${level}Upper`]), lower: finite(row[`level${level}Lower`]), rate: finite(row[`level${level}Rate`]) };
    if (limits.upper !== undefined || limits.lower !== undefined || limits.rate !== undefined) levels[level] = limits;
  }
  return { levels, hysteresis: finite(row.hysteresis) ?? 0, rateHysteresis: finite(row.rateHysteresis) ?? 0, periodMs: periodMsOf(row.ratePeriod) };
}

export const hasRate = (rule: Rule): boolean => Object.values(rule.levels).some((l) => l?.rate !== undefined);

/** Why a rule cannot work (Chinese, for the submit envelope), or undefined. More severe levels lie further out. */
export function ruleProblem(rule: Rule): string | undefined {
  const defined = ALARM_LEVELS.filter((l) => rule.levels[l]);
  if (defined.length === 0) return '请至少设置一个等级的上限、下限或变化速率';
  for (const level of defined) {
    const { upper, lower } = rule.levels[level] ?? {};
    if (upper !== undefined && lower !== undefined && lower >= upper) return `${level}级告警的下限应小于上限`;
  }
  const ordered = (pick: (l: Limits) => number | undefined, sign: 1 | -1, message: string) => {
    const values = defined.map((l) => pick(rule.levels[l] ?? {})).filter((v): v is number => v !== undefined);
    for (let i = 1; i < values.length; i++) if (sign * (values[i - 1] - values[i]) <= 0) return message;
    return undefined;
  };
  return (
    ordered((l) => l.upper, 1, '上限应随等级递减:1级(红色)上限最大') ??
    ordered((l) => l.lower, -1, '下限应随等级递增:1级(红色)下限最小') ??
    ordered((l) => l.rate, 1, '变化速率阈值应随等级递减:1级(红色)最大')
  );
}

/**
 * The rate of change per period between a reference sample and the current one. The reference is the newest
 * stored reading at least one period old, so a young series has no rate yet (no extrapolation of noise).
 */
export function rateOf(current: Sample, reference: Sample | undefined, periodMs: number): number | undefined {
  if (!reference || current.ts <= reference.ts) return undefined;
  return ((current.value - reference.value) * periodMs) / (current.ts - reference.ts);
}

/** The level reached: a level already held (or one below it) is kept until the value is back past the band. */
export function judge(rule: Rule, value: number, rate: number | undefined, held: Held): Verdict {
  for (const level of ALARM_LEVELS) {
    const limits = rule.levels[level];
    if (!limits) continue;
    const holding = held !== 0 && level >= held;
    const band = holding ? rule.hysteresis : 0;
    const rateBand = holding ? rule.rateHysteresis : 0;
    if (limits.upper !== undefined && value > limits.upper - band) return { level, kind: 'upper', limit: limits.upper };
    if (limits.lower !== undefined && value < limits.lower + band) return { level, kind: 'lower', limit: limits.lower };
    if (limits.rate !== undefined && rate !== undefined && Math.abs(rate) > limits.rate - rateBand) return { level, kind: 'rate', limit: limits.rate };
  }
  return { level: 0 };
}

/** What happens to a series' open alarm (held 0: none) given a verdict. Level 1 is the most severe. */
export function transition(held: Held, verdict: Verdict): Transition {
  if (verdict.level === held) return { action: 'none' };
  if (verdict.level === 0) return { action: 'clear' };
  if (held === 0) return { action: 'raise', ...verdict };
  return { action: verdict.level < held ? 'escalate' : 'deescalate', ...verdict };
}

const roundAlarmNumber = (value: number) => Number(value.toPrecision(10));

/** A device channel as an alarm names it. */
export interface AlarmChannel {
  device: string | null;
  code: string | null;
  point: string;
  unit: string;
}

/** Title, content and unit of an alarm at a level, in the words of the console. */
export function alarmWords(channel: AlarmChannel, level: AlarmLevel, kind: LimitKind, limit: number, value: number, rate: number | undefined): { title: string; content: string; unit: string | null } {
  const { unit } = channel;
  const what = `${channel.device ?? channel.code}(${channel.code}) ${channel.point}`;
  const measured =
    kind === 'rate'
      ? `变化速率 ${roundAlarmNumber(rate ?? 0)} 超过 ${LEVEL_NAMES[level]}阈值 ${limit}`
      : `测值 ${roundAlarmNumber(value)}${unit} ${kind === 'upper' ? '超过上限' : '低于下限'} ${limit}${unit}`;
  return { title: `${what} ${LEVEL_NAMES[level]}告警`, content: `${what}: ${measured}`, unit: unit || null };
}
