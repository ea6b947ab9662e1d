import { ALARM_ACTION, ALARM_SOURCE, ALARM_STATE, ALARM_TYPE, type AlarmLevel, TARGET_TYPE } from '../../../resources/iot/alarm';
import { type AlarmChannel, alarmWords, type Held, judge, type LimitKind, type Rule, ruleOf, transition } from '../../alarms/evaluate';
import { nextId } from '../../ids';
import type { SeriesRow } from '../../ingest/store';
import { storeSeries } from '../../series/store';
import { formatDateTime } from '../../time';
import type { Db, Row } from '../database';
import { seedId } from './ids';
import { DEMO_DEVICE_CODES } from './monitoring';
import { CRACK_TEMPERATURE_COEFFICIENT, chance, DAY_MS, modelOf, type Values, Weather, ageDays, withSpikes } from './physics';
import { slices } from '../slices';

/**
 * The demo's life (docs/data-model.md "Demo life"), seeded only when the server runs as the demo (`npm start`, DEMO=1):
 * the past week of the demo bridge's readings, every 10 minutes, from the same physics the simulator runs on; alarm
 * thresholds on its main channels, set from that week so the simulator's daily cycles cross them at several levels
 * (and its rare spikes reach red); and the alarms that week would have raised, cleared and handled. Charts, the home
 * and the data board thus have something to show at the first start.
 */

const DEMO = '100001';
const STEP_MS = 10 * 60_000;
const WEEK_MS = 7 * DAY_MS;

/** The channels with thresholds: the towers' lean, the cracks, the piers' settlement (down), the deck's sag (dz < 0). */
const WATCHED: ReadonlyArray<readonly [code: string, key: string, side: 'upper' | 'lower']> = [
  ['QJ-TILT-01', 'tilt_x', 'upper'],
  ['QJ-TILT-02', 'tilt_x', 'upper'],
  ['QJ-CRACK-01', 'crack', 'upper'],
  ['QJ-CRACK-02', 'crack', 'upper'],
  ['QJ-HLS-01', 'settlement', 'upper'],
  ['QJ-HLS-02', 'settlement', 'upper'],
  ['QJ-GNSS-01', 'dz', 'lower'],
];

/** Where in the week's values each level starts (blue, yellow, orange); red only past the week's extremes. */
const LEVEL_QUANTILES: ReadonlyArray<readonly [AlarmLevel, number]> = [
  [4, 0.85],
  [3, 0.94],
  [2, 0.985],
];

interface Device {
  id: string;
  code: string;
  name: string;
  projectId: string | null;
}

/** The channel a threshold watches, as its alarms name it. */
interface Channel {
  projectId: string | null;
  deviceId: string;
  deviceCode: string;
  pointKey: string;
  monitorPointId: string;
  thresholdId: unknown;
  words: AlarmChannel;
}

type Series = Map<string, Array<{ ts: number; value: number; raw: number }>>;

/** The week of one device: stored values by key (crack corrected for temperature as the pipeline does). */
function weekOf(code: string, now: number): Series {
  const dice = chance(seedId(code).split('').reduce((h, ch) => h * 31 + ch.charCodeAt(0), 7) >>> 0);
  const model = modelOf(code, dice);
  const weather = new Weather(dice, now - WEEK_MS);
  const series: Series = new Map();
  for (let ts = Math.ceil((now - WEEK_MS) / STEP_MS) * STEP_MS; ts < now; ts += STEP_MS) {
    const raw: Values = withSpikes(model(ts, ageDays(ts), weather), dice);
    for (const [key, value] of Object.entries(raw)) {
      const stored = key === 'crack' && raw.temperature !== undefined ? value + CRACK_TEMPERATURE_COEFFICIENT * (raw.temperature - 20) : value;
      if (!series.has(key)) series.set(key, []);
      series.get(key)?.push({ ts, value: Number(stored.toFixed(5)), raw: value });
    }
  }
  return series;
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const tidy = (n: number) => Number(n.toPrecision(3));

/** A threshold row whose levels sit at the week's quantiles (mirrored for a lower bound). */
function thresholdOf(values: readonly number[], side: 'upper' | 'lower'): Row {
  const signed = [...values].map((v) => (side === 'upper' ? v : -v)).sort((a, b) => a - b);
  const median = quantile(signed, 0.5);
  const spread = quantile(signed, 0.98) - median;
  const bound = (q: number) => tidy(side === 'upper' ? q : -q);
  const row: Row = { hysteresis: tidy(spread * 0.25) };
  for (const [level, q] of LEVEL_QUANTILES) row[`level${level}${side === 'upper' ? 'Upper' : 'Lower'}`] = bound(quantile(signed, q));
  // Red is past anything the week's physics reached without a spike.
  row[`level1${side === 'upper' ? 'Upper' : 'Lower'}`] = bound(quantile(signed, 0.999) + spread * 0.5);
  return row;
}

/** The alarm rows and their logs that a rule raises over a series, as the engine would have written them. */
function alarmsOver(series: ReadonlyArray<{ ts: number; value: number }>, rule: Rule, channel: Channel, now: number): { alarms: Row[]; logs: Row[] } {
  const alarms: Row[] = [];
  const logs: Row[] = [];
  let held: Held = 0;
  let open: Row | undefined;
  const log = (alarm: Row, action: number, fromLevel: number | null, toLevel: number | null, at: number, value: number, limit: number | null) =>
    logs.push({ ...base(at), id: nextId(), alarmId: alarm.id, projectId: alarm.projectId, deviceId: alarm.deviceId, pointKey: alarm.pointKey, revision: alarm.revision, action, fromLevel, toLevel, value, limitValue: limit, readingTs: at, logTime: formatDateTime(new Date(at)) });
  for (const { ts, value } of series) {
    const change = transition(held, judge(rule, value, undefined, held));
    const stamp = formatDateTime(new Date(ts));
    if (change.action === 'none') continue;
    if (change.action === 'clear') {
      if (!open) continue;
      Object.assign(open, { alarmState: ALARM_STATE.cleared, revision: Number(open.revision) + 1, clearTime: stamp, value, readingTs: ts, updateTime: stamp });
      log(open, ALARM_ACTION.clear, Number(open.alarmLevel), null, ts, value, null);
      // An engineer looked at it an hour later, unless it is today's.
      if (now - ts > DAY_MS) Object.assign(open, { handleState: 1, handleUserName: 'admin', handleTime: formatDateTime(new Date(ts + 3_600_000)), handleResult: '现场复核：温度效应引起，结构正常' });
      open = undefined;
      held = 0;
      continue;
    }
    const words = alarmWords(channel.words, change.level, change.kind, change.limit, value, undefined);
    if (change.action === 'raise') {
      open = {
        ...base(ts), id: nextId(), projectId: channel.projectId, deviceId: channel.deviceId, deviceCode: channel.deviceCode, pointKey: channel.pointKey, monitorPointId: channel.monitorPointId,
        thresholdId: channel.thresholdId, source: ALARM_SOURCE.rule, alarmType: typeOf(change.kind), alarmLevel: change.level, maxLevel: change.level, alarmState: ALARM_STATE.open,
        handleState: 0, revision: 1, ...words, firstValue: value, value, limitValue: change.limit, readingTs: ts, levelAt: ts, firstTime: stamp, levelTime: stamp,
      };
      alarms.push(open);
      log(open, ALARM_ACTION.raise, null, change.level, ts, value, change.limit);
    } else if (open) {
      const from = Number(open.alarmLevel);
      Object.assign(open, { ...words, alarmType: typeOf(change.kind), alarmLevel: change.level, maxLevel: Math.min(Number(open.maxLevel), change.level), revision: Number(open.revision) + 1, value, limitValue: change.limit, readingTs: ts, levelAt: ts, levelTime: stamp, updateTime: stamp });
      log(open, ALARM_ACTION[change.action], from, change.level, ts, value, change.limit);
    }
    held = change.level;
  }
  return { alarms, logs };
}

const typeOf = (kind: LimitKind) => ({ upper: ALARM_TYPE.upper, lower: ALARM_TYPE.lower, rate: ALARM_TYPE.rate })[kind];
const base = (at: number): Row => ({ tenantId: DEMO, createTime: formatDateTime(new Date(at)), updateTime: formatDateTime(new Date(at)), status: 1, isDeleted: 0 });

async function insertChunks(db: Db, table: 'wit_alarm' | 'wit_alarm_log' | 'wit_device_threshold', rows: Row[]): Promise<void> {
  for (const slice of slices(rows, 200)) await db.insertInto(table).values(slice).execute();
}

/** Demo seed step: the week, the thresholds and the week's alarms (nothing when the demo bridge is gone). */
export async function seedDemoLife(db: Db, now = Date.now()): Promise<void> {
  const devices: Device[] = await db.selectFrom('wit_device').select(['id', 'code', 'name', 'projectId']).where('tenantId', '=', DEMO).where('code', 'in', DEMO_DEVICE_CODES).where('isDeleted', '=', 0).execute();
  const weeks = new Map(devices.map((d) => [d.code, weekOf(d.code, now)]));
  // Through the series store, so the home's and the board's counters count the week too.
  const points: SeriesRow[] = devices.flatMap((d) => [...(weeks.get(d.code)?.entries() ?? [])].flatMap(([pointKey, rows]) => rows.map((r) => ({ deviceId: d.id, projectId: d.projectId, pointKey, ts: r.ts, value: r.value, raw: r.raw, tenantId: DEMO }))));
  await storeSeries(db, points);

  const thresholds: Row[] = [];
  const alarms: Row[] = [];
  const logs: Row[] = [];
  for (const [code, pointKey, side] of WATCHED) {
    const device = devices.find((d) => d.code === code);
    const series = weeks.get(code)?.get(pointKey);
    if (!device || !series?.length) continue;
    const point = await db.selectFrom('wit_device_point').select(['name', 'unit']).where('deviceId', '=', device.id).where('pointKey', '=', pointKey).where('isDeleted', '=', 0).executeTakeFirst();
    const threshold: Row = { ...base(now), id: nextId(), projectId: device.projectId, targetType: TARGET_TYPE.devicePoint, deviceId: device.id, pointKey, name: `${device.name} ${point?.name ?? pointKey}`, ...thresholdOf(series.map((s) => s.value), side) };
    thresholds.push(threshold);
    const channel: Channel = { projectId: device.projectId, deviceId: device.id, deviceCode: code, pointKey, monitorPointId: seedId(`monitoring:${DEMO}:mp:${code}:${pointKey}`), thresholdId: threshold.id, words: { device: device.name, code, point: point?.name ?? pointKey, unit: point?.unit ?? '' } };
    const week = alarmsOver(series, ruleOf(threshold), channel, now);
    alarms.push(...week.alarms);
    logs.push(...week.logs);
  }
  await insertChunks(db, 'wit_device_threshold', thresholds);
  await insertChunks(db, 'wit_alarm', alarms);
  await insertChunks(db, 'wit_alarm_log', logs);
}
