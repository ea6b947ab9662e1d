import { nextId } from '../ids';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import type { Directory } from './directory';
import type { PresenceChange } from './types';

type Reason = PresenceChange['reason'];

interface DeviceState {
  online: boolean;
  tenantId: string;
  code: string;
  gatewayId: string | null;
  lastSeen: number;
  /** Connected to the broker itself: its connection decides; otherwise silence does. */
  connected: boolean;
}

/** A device heard of only through data is offline after this much silence. */
export const SILENCE_TIMEOUT_MS = 10 * 60_000;

/**
 * Online/offline of devices and gateways. A device or gateway connected to the broker is online while connected:
 * a clean disconnect, a lost connection (its last will) or a missed keep-alive takes it offline at once. A device
 * behind a gateway is online while its data arrives, and goes offline with its gateway or after 10 minutes of
 * silence. Every change is stored (wit_device / wit_gateway, gateway transitions in wit_gateway_state) and
 * announced on the event bus.
 */
export class Presence {
  private readonly devices = new Map<string, DeviceState>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly platform: Platform,
    private readonly directory: Directory,
    private readonly silenceMs = SILENCE_TIMEOUT_MS,
  ) {}

  start(sweepMs = 5000): void {
    this.timer = setInterval(() => void this.sweep().catch((error) => this.platform.logs.error('ingest', error, 'presence sweep')), sweepMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** A broker connection of a device or gateway identity came up or went down. */
  async connection(code: string, kind: 'device' | 'gateway', online: boolean, reason: Reason, clientIp?: string): Promise<void> {
    if (kind === 'gateway') return this.gateway(code, online, reason, clientIp);
    const device = await this.directory.device(code);
    if (!device) return;
    const state = this.stateOf(device.id, device.tenantId, code, device.gatewayId);
    state.connected = online;
    await this.setDevice(device.id, state, online, reason);
  }

  /** Data of a device was stored. */
  async seen(deviceId: string, tenantId: string, code: string, gatewayId: string | null, at: number): Promise<void> {
    const state = this.stateOf(deviceId, tenantId, code, gatewayId);
    state.lastSeen = at;
    if (!state.online) await this.setDevice(deviceId, state, true, 'connect');
  }

  private stateOf(deviceId: string, tenantId: string, code: string, gatewayId: string | null): DeviceState {
    let state = this.devices.get(deviceId);
    if (!state) {
      state = { online: false, tenantId, code, gatewayId, lastSeen: Date.now(), connected: false };
      this.devices.set(deviceId, state);
    }
    return state;
  }

  private async setDevice(id: string, state: DeviceState, online: boolean, reason: Reason): Promise<void> {
    if (state.online === online) return;
    state.online = online;
    const at = Date.now();
    await this.platform.db.updateTable('wit_device').set({ online: online ? 1 : 0, lastSeen: formatDateTime(new Date(at)) }).where('id', '=', id).execute();
    this.platform.events.emit('presence', { tenantId: state.tenantId, kind: 'device', id, code: state.code, online, reason, at });
  }

  private async gateway(code: string, online: boolean, reason: Reason, clientIp?: string): Promise<void> {
    const gateway = await this.directory.gateway(code);
    if (!gateway) return;
    const row = await this.platform.db.selectFrom('wit_gateway').select(['online', 'projectId']).where('id', '=', gateway.id).executeTakeFirst();
    const at = Date.now();
    const now = formatDateTime(new Date(at));
    await this.platform.db.transaction().execute(async (trx) => {
      await trx.updateTable('wit_gateway').set({ online: online ? 1 : 0, lastSeen: now }).where('id', '=', gateway.id).execute();
      if (Number(row?.online ?? 0) !== (online ? 1 : 0)) {
        await trx
          .insertInto('wit_gateway_state')
          .values({ id: nextId(), tenantId: gateway.tenantId, gatewayId: gateway.id, gatewayCode: code, projectId: row?.projectId ?? null, online: online ? 1 : 0, reason, clientIp: clientIp ?? null, stateTime: now, createTime: now, updateTime: now, status: 1, isDeleted: 0 })
          .execute();
      }
    });
    this.platform.events.emit('presence', { tenantId: gateway.tenantId, kind: 'gateway', id: gateway.id, code, online, reason, at });
    if (online) return;
    // The devices behind it cannot be heard any more.
    for (const [id, state] of this.devices) if (state.gatewayId === gateway.id && !state.connected) await this.setDevice(id, state, false, reason);
  }

  /** Devices heard only through data go offline after the silence timeout. */
  private async sweep(): Promise<void> {
    const limit = Date.now() - this.silenceMs;
    for (const [id, state] of this.devices) {
      if (state.online && !state.connected && state.lastSeen < limit) await this.setDevice(id, state, false, 'timeout');
    }
  }
}
