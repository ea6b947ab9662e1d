import type { ExpressionBuilder } from 'kysely';
import type { PeriodicJob } from '../cluster/leases';
import type { Schema } from '../db/tables';
import { nextId } from '../ids';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import type { Directory } from './directory';
import type { PresenceChange } from './types';
import { slices } from '../db/slices';

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

/** How long presence changes are collected before they are written; a console sees a change this much later. */
const PRESENCE_WRITE_MS = 50;

interface Change {
  state: DeviceState;
  online: boolean;
  reason: Reason;
}

/** Collects values by key for `windowMs`, then hands them over at once; the last value of a key wins. */
class Coalesced<V> {
  private pending = new Map<string, V>();
  private written?: Promise<void>;

  constructor(
    private readonly write: (values: Map<string, V>) => Promise<void>,
    private readonly windowMs: number,
  ) {}

  /** Resolves once what was put so far is written. */
  async settled(): Promise<void> {
    await this.written;
  }

  /** Resolves once the value (or a later one of its key) is written. */
  put(key: string, value: V): Promise<void> {
    this.pending.set(key, value);
    this.written ??= new Promise<void>((resolve) => setTimeout(resolve, this.windowMs)).then(() => {
      const values = this.pending;
      this.pending = new Map();
      this.written = undefined;
      return this.write(values);
    });
    return this.written;
  }
}

/**
 * Online/offline of devices and gateways. A device or gateway connected to the broker is online while connected:
 * a clean disconnect, a lost connection (its last will) or a missed keep-alive takes it offline at once. A device
 * behind a gateway is online while its data arrives, and goes offline with its gateway or after DEVICE_OFFLINE_AFTER
 * (10 minutes) of silence. Every change is stored (wit_device / wit_gateway, gateway transitions in wit_gateway_state) and
 * announced on the event bus.
 *
 * Several processes of a deployment each hear some of a device's data (docs/operations.md): a device's change is
 * stored by a conditional update that only one of them wins, and only the winner announces it; the silence sweep runs
 * once per period across the deployment, against `last_seen` as every process writes it back.
 */
export class Presence {
  private readonly devices = new Map<string, DeviceState>();
  /**
   * A fleet's CONNECTs arrive one per turn of the event loop: written per turn, 5,000 reconnecting devices were 2,800
   * single-row commits, 4 s of the main thread (bench:connections). Collected for 50 ms, they are a few dozen.
   */
  private readonly writes = new Coalesced<Change>((changes) => this.write(changes), PRESENCE_WRITE_MS);
  private job?: PeriodicJob;

  constructor(
    private readonly platform: Platform,
    private readonly directory: Directory,
    private readonly silenceMs: number,
  ) {}

  start(sweepMs = 5000): void {
    this.job = this.platform.leases.every('presence-sweep', sweepMs, () => this.sweep(), (error) => this.platform.logs.error('ingest', error, 'presence sweep'));
  }

  async stop(): Promise<void> {
    await this.job?.stop();
    await this.writes.settled();
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

  /**
   * Devices whose connections this process ends as it closes: they stay online, their silence counted from now, so the
   * sweep takes offline only those that do not reconnect within DEVICE_OFFLINE_AFTER.
   */
  async handOver(codes: string[]): Promise<void> {
    // The devices this process knows connected: their states, no lookup of 20,000 codes while the process closes.
    const leaving = new Set(codes);
    const ids: string[] = [];
    for (const [id, state] of this.devices) {
      if (!state.connected || !leaving.has(state.code)) continue;
      state.connected = false;
      ids.push(id);
    }
    const now = formatDateTime(new Date());
    for (const slice of slices(ids)) {
      await this.platform.db.updateTable('wit_device').set({ lastSeen: now }).where('id', 'in', slice).where('online', '=', 1).execute();
    }
  }

  /** Data of a device was stored. */
  async seen(deviceId: string, tenantId: string, code: string, gatewayId: string | null, at: number): Promise<void> {
    const state = this.stateOf(deviceId, tenantId, code, gatewayId);
    // Silent here for the timeout: the sweep may have taken it offline meanwhile, though this process thinks it online.
    const silentHere = at - state.lastSeen >= this.silenceMs;
    state.lastSeen = at;
    if (!state.online || silentHere) await this.setDevice(deviceId, state, true, 'connect', silentHere);
  }

  private stateOf(deviceId: string, tenantId: string, code: string, gatewayId: string | null): DeviceState {
    let state = this.devices.get(deviceId);
    if (!state) {
      state = { online: false, tenantId, code, gatewayId, lastSeen: Date.now(), connected: false };
      this.devices.set(deviceId, state);
    }
    return state;
  }

  /** Stores and announces a change, unless this process knows it has none or another process stored it first. */
  private setDevice(id: string, state: DeviceState, online: boolean, reason: Reason, recheck = false): Promise<void> {
    if (state.online === online && !recheck) return Promise.resolve();
    state.online = online;
    return this.writes.put(id, { state, online, reason });
  }

  /**
   * The changes asked for within PRESENCE_WRITE_MS, in one conditional UPDATE per direction (per 500 devices): a fleet
   * reconnecting after a restart costs tens of statements, not one per device. A device changed twice within it is
   * written once, as it ends.
   */
  private async write(changes: Map<string, Change>): Promise<void> {
    const at = Date.now();
    for (const online of [true, false]) {
      const ids = [...changes].filter(([, change]) => change.online === online).map(([id]) => id);
      for (const slice of slices(ids)) {
        const stored = await this.platform.db
          .updateTable('wit_device')
          .set({ online: online ? 1 : 0, lastSeen: formatDateTime(new Date(at)) })
          .where('id', 'in', slice)
          .where((eb) => (online ? eb.or([eb('online', '=', 0), eb('online', 'is', null)]) : eb('online', '=', 1)))
          .returning('id')
          .execute();
        for (const { id } of stored) {
          const { state, reason } = changes.get(id) as Change;
          this.platform.events.emit('presence', { tenantId: state.tenantId, kind: 'device', id, code: state.code, online, reason, at });
        }
      }
    }
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

  /**
   * Devices heard only through data go offline after the silence timeout: those online whose `last_seen` (written back
   * by whichever process heard them last) is older, but for those connected to this process's own broker.
   */
  private async sweep(): Promise<void> {
    const at = Date.now();
    const limit = formatDateTime(new Date(at - this.silenceMs));
    const silent = (eb: ExpressionBuilder<Schema, 'wit_device'>) => eb.and([eb('online', '=', 1), eb.or([eb('lastSeen', '<', limit), eb('lastSeen', 'is', null)])]);
    const candidates = await this.platform.db.selectFrom('wit_device').select('id').where(silent).execute();
    const ids = candidates.map((row) => row.id).filter((id) => !this.devices.get(id)?.connected);
    for (const slice of slices(ids)) {
      const gone = await this.platform.db
        .updateTable('wit_device')
        .set({ online: 0 })
        .where('id', 'in', slice)
        .where(silent)
        .returning(['id', 'tenantId', 'code'])
        .execute();
      for (const device of gone) {
        const state = this.devices.get(device.id);
        if (state) state.online = false;
        this.platform.events.emit('presence', { tenantId: device.tenantId, kind: 'device', id: device.id, code: device.code, online: false, reason: 'timeout', at });
      }
    }
  }
}
