import type { ScreenReading } from '../resources/wire/screen';
import type { ScreenStreamEvent } from './screen';
import { type ChannelValues, orNull, type ProjectView, type ScreenView, VALUES_PER_CHANNEL } from './screenSnapshot';

/**
 * The live values of a wall screen's channels and its projects' count of today's points, kept outside the screen's
 * state (streams/screenState.ts): a project of 2,000 devices takes tens of reading batches a second, and copying the
 * project per batch, then rendering its panels again, pegs the browser. Here a reading updates its channel's record
 * in place (no allocation per point), and `flush` — once per batch of the stream, i.e. per animation frame — tells
 * the listeners of the records that changed, so only their tiles render again.
 */

/** A channel's latest value, the one before it and the time of the latest; `version` grows with every change. */
export interface LiveChannel {
  value: number | null;
  previous: number | null;
  ts: number | null;
  version: number;
}

interface Entry extends LiveChannel {
  listeners: Set<() => void>;
  /** The last snapshot that had the channel. */
  generation: number;
}

interface Count {
  value: number;
  listeners: Set<() => void>;
}

export class ScreenChannels {
  private readonly byDevice = new Map<string, Map<string, Entry>>();
  private readonly counts = new Map<string, Count>();
  private readonly dirty = new Set<{ listeners: Set<() => void> }>();
  /** A snapshot is being fetched: readings from now on may be in its counts. */
  private syncing = false;
  private generation = 0;
  /** How many entries byDevice holds. */
  private size = 0;
  /** Each project's entries in the order of its channels, for its shape. */
  private readonly ordered = new Map<string, { shape: string; entries: Entry[] }>();

  /** A batch of the stream's events (one animation frame's): snapshots and readings taken in order, then flushed. */
  take(batch: readonly ScreenStreamEvent[]): void {
    for (const event of batch) {
      if (event.type === 'syncing') this.syncing = true;
      else if (event.type === 'snapshot') {
        this.seed(event.data, event.values);
        this.syncing = false;
      } else if (event.type === 'readings') this.apply(event.readings, !this.syncing);
    }
    this.flush();
  }

  /**
   * Takes a snapshot's values: a channel keeps a newer value it was told of meanwhile (a reading applied while the
   * snapshot was fetched); channels and projects the snapshot no longer has are forgotten. Today's counts become the
   * snapshot's (readings during the fetch may be in them already: not counted again). A project of 20,000 channels
   * is taken without a lookup per channel when its shape is that of an earlier snapshot (streams/screenSnapshot.ts):
   * its entries are remembered in order. Each entry is stamped with the snapshot's generation; those left unstamped,
   * if any, are the ones to forget (a channel in two points is stamped, and counted, once).
   */
  seed(data: ScreenView, values: ChannelValues): void {
    const generation = ++this.generation;
    let offset = 0;
    let stamped = 0;
    for (const project of data.projects) {
      this.countOf(project.id).value = project.pointsToday;
      this.dirty.add(this.countOf(project.id));
      const entries = this.entriesOf(project);
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        const at = (offset + i) * VALUES_PER_CHANNEL;
        if (entry.generation !== generation) stamped++;
        entry.generation = generation;
        const value = orNull(values[at]);
        const previous = orNull(values[at + 1]);
        const ts = orNull(values[at + 2]);
        if (entry.ts !== null && (ts === null || entry.ts > ts)) continue;
        if (entry.ts === ts && entry.value === value && entry.previous === previous) continue;
        entry.value = value;
        entry.previous = previous;
        entry.ts = ts;
        this.changed(entry);
      }
      offset += entries.length;
    }
    if (stamped < this.size) this.forgetBefore(generation);
    const projects = new Set(data.projects.map((p) => p.id));
    for (const id of this.counts.keys()) if (!projects.has(id)) this.counts.delete(id);
    for (const id of this.ordered.keys()) if (!projects.has(id)) this.ordered.delete(id);
  }

  /** The entries of a project's channels, in order: remembered for its shape (streams/screenSnapshot.ts). */
  private entriesOf(project: ProjectView): Entry[] {
    const known = this.ordered.get(project.id);
    if (known?.shape === project.shape) return known.entries;
    const entries = project.points.flatMap((point) => point.channels.map((c) => this.entry(c.deviceId, c.pointKey)));
    this.ordered.set(project.id, { shape: project.shape, entries });
    return entries;
  }

  /** Forgets the channels no snapshot since `generation` had (and the remembered orders, which may hold them). */
  private forgetBefore(generation: number): void {
    for (const [deviceId, channels] of this.byDevice) {
      for (const [key, entry] of channels) {
        if (entry.generation === generation) continue;
        channels.delete(key);
        this.size--;
      }
      if (channels.size === 0) this.byDevice.delete(deviceId);
    }
    this.ordered.clear();
  }

  /** A batch of readings: each channel the screen has takes a value newer than its own; `count` adds to today's. */
  apply(readings: readonly ScreenReading[], count = true): void {
    for (const reading of readings) {
      const channels = this.byDevice.get(reading.deviceId);
      let stored = 0;
      for (const key in reading.values) {
        stored++;
        const entry = channels?.get(key);
        if (!entry || (entry.ts !== null && reading.ts <= entry.ts)) continue;
        entry.previous = entry.value;
        entry.value = reading.values[key];
        entry.ts = reading.ts;
        this.changed(entry);
      }
      const total = this.counts.get(reading.projectId);
      if (count && total && stored > 0) {
        total.value += stored;
        this.dirty.add(total);
      }
    }
  }

  /** Tells the listeners of what changed since the last flush. */
  flush(): void {
    if (this.dirty.size === 0) return;
    const changed = [...this.dirty];
    this.dirty.clear();
    for (const entry of changed) for (const listener of entry.listeners) listener();
  }

  /** The record of a channel (the same object for as long as the screen has the channel). */
  channel(deviceId: string, pointKey: string): LiveChannel {
    return this.entry(deviceId, pointKey);
  }

  subscribeChannel(deviceId: string, pointKey: string, listener: () => void): () => void {
    return listen(this.entry(deviceId, pointKey).listeners, listener);
  }

  pointsToday(projectId: string): number {
    return this.counts.get(projectId)?.value ?? 0;
  }

  subscribeCount(projectId: string, listener: () => void): () => void {
    return listen(this.countOf(projectId).listeners, listener);
  }

  private entry(deviceId: string, pointKey: string): Entry {
    let channels = this.byDevice.get(deviceId);
    if (!channels) this.byDevice.set(deviceId, (channels = new Map()));
    let entry = channels.get(pointKey);
    if (!entry) {
      channels.set(pointKey, (entry = { value: null, previous: null, ts: null, version: 0, listeners: new Set(), generation: this.generation }));
      this.size++;
    }
    return entry;
  }

  private countOf(projectId: string): Count {
    let count = this.counts.get(projectId);
    if (!count) this.counts.set(projectId, (count = { value: 0, listeners: new Set() }));
    return count;
  }

  /** A new version; told at the next flush when a tile listens (a tile that mounts later reads the record as it is). */
  private changed(entry: Entry): void {
    entry.version++;
    if (entry.listeners.size > 0) this.dirty.add(entry);
  }
}

function listen(listeners: Set<() => void>, listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
