/**
 * The socket payloads of the live debug stream (docs/live-and-history.md), sent by server/realtime/debug.ts and read
 * by streams/debug.ts.
 */

export const DEBUG_EVENTS = {
  subscribe: 'debug.subscribe',
  unsubscribe: 'debug.unsubscribe',
  message: 'debug.message',
  presence: 'debug.presence',
} as const;

export type DebugKind = 'device' | 'gateway';

/** The values of one reading of one device: as it arrived (`raw`) and as stored (`value`), by point key. */
export interface DebugReading {
  deviceId: string;
  code: string;
  ts: number;
  values: Record<string, { raw: number; value: number }>;
}

/** A device or gateway went online or offline (connect, disconnect, last will, or silence past its timeout). */
export interface PresenceChange {
  tenantId: string;
  kind: DebugKind;
  id: string;
  code: string;
  online: boolean;
  reason: 'connect' | 'disconnect' | 'will' | 'timeout';
  at: number;
}

/** One message as a debug console shows it (`debug.message`). */
export interface DebugMessage {
  id: string;
  /** The subscription it belongs to. */
  kind: DebugKind;
  targetId: string;
  code: string;
  topic: string;
  payload: string;
  receivedAt: number;
  receivedTime: string;
  /** The readings of the target (a device sees only its own readings in a gateway's message). */
  readings: DebugReading[];
  error: string | null;
}

/** `debug.presence`: a presence change of a watched device or gateway. */
export interface DebugPresence {
  kind: DebugKind;
  targetId: string;
  change: PresenceChange;
}

/** `debug.subscribe`: one device or one gateway; `since` (receivedAt) asks for a replay of what was missed. */
export interface SubscribeRequest {
  deviceId?: string;
  gatewayId?: string;
  since?: number;
}

/** The acknowledgement of `debug.subscribe`. */
export interface SubscribeAnswer {
  ok: boolean;
  msg?: string;
  kind?: DebugKind;
  targetId?: string;
  code?: string;
  name?: string;
  online?: boolean;
  replayed?: number;
  /** More messages were missed than the server replays: the oldest were left out. */
  truncated?: boolean;
}
