import { STATS_EVENT, type StatsChanged } from '../../resources/wire/statistics';
import type { AlarmChange } from '../events';
import type { PresenceChange, StoredReading } from '../ingest/types';
import type { Platform } from '../platform';
import type { Realtime } from '.';

/** At most one `stats.changed` per tenant in this many milliseconds. */
export const STATS_INTERVAL_MS = 2000;

type What = StatsChanged['what'][number];

/** The time and timers of the throttle (tests: a clock they move themselves). */
export interface ThrottleClock {
  now(): number;
  /** Runs `run` after `ms`; the handle cancels it. */
  later(ms: number, run: () => void): { stop(): void };
}

const realClock: ThrottleClock = {
  now: Date.now,
  later(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return { stop: () => clearTimeout(timer) };
  },
};

interface TenantState {
  /** When this tenant was last told; -Infinity: never. */
  last: number;
  pending: Set<What>;
  timer?: { stop(): void };
}

/**
 * Tells each tenant that its figures changed, at most once every `intervalMs` (docs/statistics.md "Live"): the first
 * change after a quiet interval goes out at once; changes within the interval after it are gathered into one event
 * at the interval's end, naming everything that changed. Nothing is lost: the last change is always followed by an
 * event.
 */
export class StatsThrottle {
  private readonly tenants = new Map<string, TenantState>();

  constructor(
    private readonly send: (tenantId: string, body: StatsChanged) => void,
    private readonly clock: ThrottleClock = realClock,
    private readonly intervalMs = STATS_INTERVAL_MS,
  ) {}

  changed(tenantId: string, what: What): void {
    let state = this.tenants.get(tenantId);
    if (!state) {
      state = { last: Number.NEGATIVE_INFINITY, pending: new Set() };
      this.tenants.set(tenantId, state);
    }
    state.pending.add(what);
    if (state.timer) return;
    const wait = state.last + this.intervalMs - this.clock.now();
    if (wait <= 0) {
      this.flush(tenantId, state);
      return;
    }
    const waiting = state;
    waiting.timer = this.clock.later(wait, () => {
      waiting.timer = undefined;
      this.flush(tenantId, waiting);
    });
  }

  private flush(tenantId: string, state: TenantState): void {
    const at = this.clock.now();
    const what = [...state.pending].sort();
    state.pending.clear();
    state.last = at;
    this.send(tenantId, { tenantId, what, at });
  }

  stop(): void {
    for (const state of this.tenants.values()) state.timer?.stop();
    this.tenants.clear();
  }
}

export interface StatsEvents {
  throttle: StatsThrottle;
  stop(): void;
}

/**
 * Sends `stats.changed` to a tenant's room when its alarms change, its devices come online or go offline, or readings
 * of it are stored — what the home and the data board refetch on.
 */
export function startStatsEvents(platform: Platform, realtime: Realtime, clock?: ThrottleClock): StatsEvents {
  const throttle = new StatsThrottle((tenantId, body) => realtime.toTenant(tenantId, STATS_EVENT, body), clock);
  const onReadings = (batch: readonly StoredReading[]) => {
    for (const tenantId of new Set(batch.map((r) => r.tenantId))) throttle.changed(tenantId, 'readings');
  };
  const onPresence = (change: PresenceChange) => throttle.changed(change.tenantId, 'presence');
  const onAlarm = (change: AlarmChange) => throttle.changed(change.tenantId, 'alarms');
  platform.events.on('readings', onReadings);
  platform.events.on('presence', onPresence);
  platform.events.on('alarm', onAlarm);
  return {
    throttle,
    stop() {
      platform.events.off('readings', onReadings);
      platform.events.off('presence', onPresence);
      platform.events.off('alarm', onAlarm);
      throttle.stop();
    },
  };
}
