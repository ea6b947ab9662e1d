import type { Db } from '../db/database';
import { formatDateTime } from '../time';

export interface LatestValue {
  ts: number;
  value: number;
}

/**
 * The latest value of every device channel, in memory for the live views and the pipeline (temperature for
 * compensation), written back to wit_device.last_values / last_seen every few seconds for the lists and restarts.
 */
export class LatestValues {
  private readonly byDevice = new Map<string, Map<string, LatestValue>>();
  private readonly dirty = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown, context: string) => void,
  ) {}

  start(intervalMs = 2000): void {
    this.timer = setInterval(() => void this.persist().catch((error) => this.onError(error, 'latest values write-back')), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  get(deviceId: string, pointKey: string): LatestValue | undefined {
    return this.byDevice.get(deviceId)?.get(pointKey);
  }

  of(deviceId: string): Record<string, LatestValue> {
    return Object.fromEntries(this.byDevice.get(deviceId) ?? []);
  }

  /** Keeps the newest value per channel by measurement time (late, buffered readings do not overwrite). */
  update(deviceId: string, pointKey: string, ts: number, value: number, seenAt: number): void {
    let channels = this.byDevice.get(deviceId);
    if (!channels) {
      channels = new Map();
      this.byDevice.set(deviceId, channels);
    }
    const current = channels.get(pointKey);
    if (!current || current.ts <= ts) channels.set(pointKey, { ts, value });
    this.dirty.set(deviceId, seenAt);
  }

  /** Writes the changed devices' latest values and last-seen times. */
  async persist(): Promise<void> {
    if (this.dirty.size === 0) return;
    const changed = [...this.dirty];
    this.dirty.clear();
    await this.db.transaction().execute(async (trx) => {
      for (const [deviceId, seenAt] of changed) {
        const values = Object.fromEntries([...(this.byDevice.get(deviceId) ?? [])].map(([key, v]) => [key, v.value]));
        await trx
          .updateTable('wit_device')
          .set({ lastValues: JSON.stringify(values), lastSeen: formatDateTime(new Date(seenAt)) })
          .where('id', '=', deviceId)
          .execute();
      }
    });
  }
}
