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

/** A device went online or offline (connect, disconnect, last will, or silence past its timeout). */
export interface PresenceChange {
  tenantId: string;
  kind: 'device' | 'gateway';
  id: string;
  code: string;
  online: boolean;
  reason: 'connect' | 'disconnect' | 'will' | 'timeout';
  at: number;
}
