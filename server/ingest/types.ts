import type { DebugReading } from '../../resources/wire/debug';

/** What the ingestion pipeline hands on after a batch of readings is durably stored (docs/ingest.md). */
export interface StoredReading {
  tenantId: string;
  projectId: string | null;
  deviceId: string;
  deviceCode: string;
  /** The channel (device point key) the value arrived under. */
  pointKey: string;
  /** Measurement time, epoch milliseconds. */
  ts: number;
  /** Engineering value after formula, initial value and temperature compensation. */
  value: number;
  /** The value as the device sent it. */
  raw: number;
}

// Presence changes travel to the debug consoles as they are.
export type { PresenceChange } from '../../resources/wire/debug';

/** A message as the debug consoles show it: what arrived, and what the pipeline made of it. */
export interface DeviceMessage {
  /** The message's wit_collect_data id: live views and replays from the table agree on it. */
  id: string;
  tenantId: string;
  /** Set for a device's own topic. */
  deviceId: string | null;
  /** Set for a gateway's topic. */
  gatewayId: string | null;
  code: string;
  topic: string;
  payload: string;
  receivedAt: number;
  readings: DebugReading[];
  /** Why (part of) the message was not stored. */
  error: string | null;
}
