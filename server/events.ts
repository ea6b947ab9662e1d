import { EventEmitter } from 'node:events';
import type { DeviceMessage, PresenceChange, StoredReading } from './ingest/types';

/** A change of an alarm, told once it is committed. */
export interface AlarmChange {
  tenantId: string;
  alarmId: string;
  projectId: string | null;
  /** The engine's moves, a person's handling, an alarm recorded (or its remark edited) by hand, a removal. */
  action: 'raise' | 'escalate' | 'deescalate' | 'clear' | 'handle' | 'record' | 'remove';
}

/** In-process notifications between parts of the server; caches listen for the tables they mirror. */
export interface ServerEvents {
  /** Rows of a table were inserted, updated or deleted. */
  changed: [table: string];
  /** A batch of readings was stored (in arrival order); alarms and live views listen. */
  readings: [batch: readonly StoredReading[]];
  /** A data message was handled (stored, or kept raw with its error); the debug consoles listen. */
  message: [message: DeviceMessage];
  /** A device or gateway came online or went offline. */
  presence: [change: PresenceChange];
  /** Alarms were raised, moved, cleared, handled, recorded or removed (after the commit); the wall screens listen. */
  alarms: [change: AlarmsChanged];
}

export interface AlarmsChanged {
  tenantId: string;
  /** The alarms' ids (wit_alarm). */
  ids: readonly string[];
  /** Epoch ms of the change. */
  at: number;
  /** What the alarm engine did (thresholds, docs/alarms.md "States"); absent for people's handling, records, removals. */
  action?: 'raise' | 'escalate' | 'deescalate' | 'clear';
}

/** A `changed` event for every table: what a cache hears when changes may have been missed (server/cluster/relay.ts). */
export const ANY_TABLE = '*';

/** Whether a `changed` event of `table` concerns a cache of `tables`. */
export const affects = (table: string, tables: ReadonlySet<string> | readonly string[]) =>
  table === ANY_TABLE || ('has' in tables ? tables.has(table) : tables.includes(table));

export class EventBus extends EventEmitter<ServerEvents> {
  constructor() {
    super();
    this.setMaxListeners(0); // one listener per repository and cache, by design
  }

  /** Runs `then` whenever rows of one of `tables` change: how a cache is dropped with the tables it mirrors. */
  whenChanged(tables: Iterable<string>, then: () => void): void {
    const watched = new Set(tables);
    this.on('changed', (table) => {
      if (affects(table, watched)) then();
    });
  }
}
