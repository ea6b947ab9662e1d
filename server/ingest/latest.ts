import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../db/database';
import { formatDateTime } from '../time';
import { slices } from '../db/slices';

/**
 * Devices per UPDATE of the write-back, the UPDATEs one after another (on SQLite one per group commit of the series
 * writer): 4,000 devices changed in 2 s (a fleet reconnecting) written in one go held SQLite's connection on the main
 * thread, and every socket with it, for 100-130 ms; 100 take 2-5 ms of whichever connection runs them (bench:connections).
 */
const PERSIST_BATCH = 100;

/**
 * The share of the interval over which a write-back spreads its statements. All at once, the 40 statements of a fleet
 * reconnecting (4,000 devices in 2 s) took ~65 ms of the main thread and ~50 ms of PostgreSQL's within ~250 ms, and
 * the devices' acknowledgements in that moment took twice as long as the rest (bench:connections).
 */
const SPREAD_SHARE = 3 / 4;

/** Runs a write-back statement: the server hands it to the series writer's thread, its own connection otherwise. */
export type Execute = (query: CompiledQuery) => Promise<unknown>;

export interface LatestValue {
  ts: number;
  value: number;
}

/** A channel's latest value with the one before it (the wall screen shows the change). */
export interface LatestChannel extends LatestValue {
  previous: number | null;
}

/** `wit_device.last_channels`: {pointKey: [ts, value, previous]}. */
type StoredChannels = Record<string, [number, number, number | null]>;

/** A device's stored channels, or undefined when the text is not what the write-back writes. */
export function parseChannels(text: string | null | undefined): Map<string, LatestChannel> | undefined {
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const out = new Map<string, LatestChannel>();
  for (const [key, entry] of Object.entries(parsed as Record<string, unknown>)) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'number' || typeof entry[1] !== 'number') continue;
    out.set(key, { ts: entry[0], value: entry[1], previous: typeof entry[2] === 'number' ? entry[2] : null });
  }
  return out;
}

/**
 * The latest value of every device channel and the one before it, in memory for the live views and the pipeline
 * (temperature for compensation), written back to wit_device (last_values, last_channels, last_seen) every few
 * seconds for the lists, the wall screen's snapshot and restarts: `start` reads what was written back, so a channel
 * keeps its previous value across a restart.
 */
export class LatestValues {
  private readonly byDevice = new Map<string, Map<string, LatestChannel>>();
  private readonly dirty = new Map<string, number>();
  /** The write-back's statement text by how many devices it carries (statementFor). */
  private readonly statements = new Map<number, string>();
  /** Callers of `persist()` waiting: the write-back under way stops spreading its statements. */
  private urgent = 0;
  /** Ends the pause of the write-back under way. */
  private wake?: () => void;
  private timer?: NodeJS.Timeout;
  private loaded?: Promise<void>;
  /** The write-back under way: the next waits for it, so `persist()` ends with everything changed before it written. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown, context: string) => void,
    private readonly execute: Execute = (query) => db.executeQuery(query),
  ) {}

  /** Writes back every `intervalMs`, each write-back's statements spread over `spreadMs`. */
  start(intervalMs = 2000, spreadMs = intervalMs * SPREAD_SHARE): void {
    this.loaded = this.load().catch((error) => this.onError(error, 'latest values load'));
    this.timer = setInterval(() => void this.queue(spreadMs).catch((error) => this.onError(error, 'latest values write-back')), intervalMs);
    this.timer.unref();
  }

  /** Settles once what was written back before this start is read (or failed to be, which is logged). */
  whenLoaded(): Promise<void> {
    return this.loaded ?? Promise.resolve();
  }

  /** Stops the timer; a write-back under way goes on without its pauses. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.wake?.();
  }

  get(deviceId: string, pointKey: string): LatestValue | undefined {
    return this.byDevice.get(deviceId)?.get(pointKey);
  }

  of(deviceId: string): Record<string, LatestValue> {
    return Object.fromEntries(this.byDevice.get(deviceId) ?? []);
  }

  /** A device's channels as this process knows them now (newer than its last write-back). */
  channels(deviceId: string): ReadonlyMap<string, LatestChannel> | undefined {
    return this.byDevice.get(deviceId);
  }

  /** Keeps the newest value per channel by measurement time (late, buffered readings do not overwrite). */
  update(deviceId: string, pointKey: string, ts: number, value: number, seenAt: number): void {
    const channels = this.channelsOf(deviceId);
    const current = channels.get(pointKey);
    if (!current) channels.set(pointKey, { ts, value, previous: null });
    else if (current.ts < ts) channels.set(pointKey, { ts, value, previous: current.value });
    else if (current.ts === ts) current.value = value;
    this.dirty.set(deviceId, seenAt);
  }

  /**
   * Writes the changed devices' latest values and last-seen times, PERSIST_BATCH devices to an UPDATE … FROM
   * (VALUES …): a fleet publishing every 20 s is a thousand devices a second, one statement each was a round trip each
   * on PostgreSQL.
   */
  persist(): Promise<void> {
    // A write-back spreading its statements ends without the pauses while someone waits for it (shutdown, tests).
    this.urgent++;
    this.wake?.();
    return this.queue(0).finally(() => this.urgent--);
  }

  private queue(spreadMs: number): Promise<void> {
    const written = this.writing.then(() => this.writeBack(spreadMs));
    this.writing = written.catch(() => undefined);
    return written;
  }

  /** Writes back what changed, its statements spread evenly over `spreadMs` while started and no `persist()` waits. */
  private async writeBack(spreadMs: number): Promise<void> {
    await this.loaded;
    if (this.dirty.size === 0) return;
    const changed = [...this.dirty];
    this.dirty.clear();
    const batches = slices(changed, PERSIST_BATCH);
    const started = performance.now();
    for (const [i, slice] of batches.entries()) {
      const due = started + (i * spreadMs) / batches.length - performance.now();
      if (due > 0 && this.urgent === 0 && this.timer) await this.pause(due);
      const parameters: unknown[] = [];
      for (const [deviceId, seenAt] of slice) this.pushRow(parameters, deviceId, seenAt);
      await this.execute(CompiledQuery.raw(this.statementFor(slice.length), parameters));
    }
  }

  /** Waits `ms`, or less if a `persist()` comes meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.wake?.(), ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  /**
   * The write-back's text for `devices` rows, compiled once per count: compiled through the query builder for every
   * write-back it took ~4 µs of the main thread a device, a third of the write-back's ~50 ms every 2 s while a fleet
   * reconnects (bench:connections).
   */
  private statementFor(devices: number): string {
    let text = this.statements.get(devices);
    if (text === undefined) {
      const row = sql`(${null}, ${null}, ${null}, ${null}, ${null})`;
      // VALUES names its columns column1… on both stores. Another process of the deployment may have heard a device
      // later and written that back already: values only replace older ones, and last_seen (which presence moves
      // too) only moves forward. Each statement stands alone: a device's row is all it changes.
      const query = sql`update wit_device set last_values = v.column2, last_channels = v.column3, last_values_at = cast(v.column5 as bigint),
          last_seen = case when wit_device.last_seen is null or wit_device.last_seen < v.column4 then v.column4 else wit_device.last_seen end
        from (values ${sql.join(Array.from({ length: devices }, () => row))}) as v
        where wit_device.id = v.column1 and (wit_device.last_values_at is null or wit_device.last_values_at <= cast(v.column5 as bigint))`;
      text = query.compile(this.db).sql;
      this.statements.set(devices, text);
    }
    return text;
  }

  /** One device's VALUES row: id, values, stored channels, last seen as text and as a number. */
  private pushRow(parameters: unknown[], deviceId: string, seenAt: number): void {
    const values: Record<string, number> = {};
    const stored: StoredChannels = {};
    for (const [key, v] of this.byDevice.get(deviceId) ?? []) {
      values[key] = v.value;
      stored[key] = [v.ts, v.value, v.previous];
    }
    parameters.push(deviceId, JSON.stringify(values), JSON.stringify(stored), formatDateTime(new Date(seenAt)), seenAt);
  }

  private channelsOf(deviceId: string): Map<string, LatestChannel> {
    let channels = this.byDevice.get(deviceId);
    if (!channels) this.byDevice.set(deviceId, (channels = new Map()));
    return channels;
  }

  /**
   * What was written back before this start (every device with channels, one query; background, no caller). A
   * reading that came meanwhile is newer and stays; it takes the stored value as its previous.
   */
  private async load(): Promise<void> {
    const rows = await this.db.selectFrom('wit_device').select(['id', 'lastChannels']).where('lastChannels', 'is not', null).where('isDeleted', '=', 0).execute();
    for (const row of rows) {
      const stored = parseChannels(row.lastChannels);
      if (!stored) continue;
      const channels = this.channelsOf(row.id);
      for (const [key, before] of stored) {
        const now = channels.get(key);
        if (!now) channels.set(key, before);
        else if (now.ts > before.ts && now.previous === null) now.previous = before.value;
      }
    }
  }
}
