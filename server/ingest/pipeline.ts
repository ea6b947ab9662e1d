import { nextId } from '../ids';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import { engineeringValue } from './calculate';
import type { DeviceContext, Directory } from './directory';
import { TEMPERATURE_KEY } from './directory';
import type { LatestValues } from './latest';
import { parseDevicePayload, parseGatewayPayload, type Parsed, PayloadError, type Reading, type RefusalReason } from './payload';
import type { Presence } from './presence';
import type { Priority, RawRow, SeriesWriter } from './store';
import type { DeviceMessage, StoredReading } from './types';

/** `vigil/<tenant>/device|gateway/<code>/data` */
const DATA_TOPIC = /^vigil\/(\d{6})\/(device|gateway)\/([^/]+)\/data$/;
const MAX_STORED_PAYLOAD = 64 * 1024;

export function isDataTopic(topic: string): boolean {
  return DATA_TOPIC.test(topic);
}

/** How many values readings hold: what a refusal of a gateway's device entries counts. */
function valueCount(readings: readonly Reading[]): number {
  return readings.reduce((n, reading) => n + Object.keys(reading.values).length, 0);
}

interface Outcome {
  /** The values to store, as the writer stores them and as the `readings` event carries them after. */
  stored: StoredReading[];
  shown: DeviceMessage['readings'];
  seen: DeviceContext[];
  problems: string[];
}

/**
 * The ingestion pipeline (docs/ingest.md): raw message kept -> engineering values (model formula, initial value,
 * temperature compensation) -> time series in group-committed transactions -> latest values -> events for alarms
 * and live views. `accept` resolves once the message is durably stored; a malformed message is stored raw with its
 * error and resolves too, so a bad device never stalls the broker or itself.
 */
export class Ingestion {
  constructor(
    private readonly platform: Platform,
    private readonly directory: Directory,
    private readonly writer: SeriesWriter,
    private readonly latest: LatestValues,
    private readonly presence: Presence,
  ) {}

  async accept(topic: string, payload: Buffer, receivedAt = Date.now(), priority: Priority = 'live'): Promise<void> {
    const match = DATA_TOPIC.exec(topic);
    if (!match) return;
    const [, tenantId, kind, code] = match;
    const outcome: Outcome = { stored: [], shown: [], seen: [], problems: [] };
    // As text, the same on both stores: invalid UTF-8 and U+0000 (which PostgreSQL text cannot hold) become U+FFFD.
    const text = payload.toString('utf8').replaceAll('\0', '\uFFFD');
    let deviceId: string | null = null;
    let gatewayId: string | null = null;
    let projectId: string | null = null;
    try {
      if (kind === 'device') {
        const device = await this.accepting(tenantId, code);
        deviceId = device.id;
        projectId = device.projectId;
        const parsed = parseDevicePayload(text, receivedAt);
        this.calculateAll(device, parsed, outcome);
      } else {
        const gateway = await this.directory.gateway(code);
        if (!gateway || gateway.tenantId !== tenantId) throw new PayloadError('网关不存在', 'unknown_gateway');
        if (!gateway.accepting) throw new PayloadError('网关已停用或其项目在回收站中', 'disabled');
        gatewayId = gateway.id;
        projectId = gateway.projectId;
        const parsed = parseGatewayPayload(text, receivedAt);
        await this.calculateGateway(tenantId, gateway.id, parsed, outcome);
      }
    } catch (error) {
      if (!(error instanceof PayloadError)) throw error;
      this.refused(error.reason);
      outcome.problems.unshift(error.message);
      outcome.stored = [];
      outcome.shown = [];
    }
    const error = outcome.problems.length ? outcome.problems.join('; ').slice(0, 4000) : null;
    const raw: RawRow = {
      id: nextId(),
      tenantId,
      deviceId,
      gatewayId,
      projectId,
      deviceCode: kind === 'device' ? code : null,
      topic,
      payload: text.length > MAX_STORED_PAYLOAD ? `${text.slice(0, MAX_STORED_PAYLOAD)}…(已截断)` : text,
      receivedAt,
      readings: outcome.stored.length,
      error,
      createTime: formatDateTime(new Date(receivedAt)),
    };
    try {
      await this.writer.write(outcome.stored, raw, priority);
    } catch (failure) {
      // Unacknowledged: the broker disconnects the device, which sends the message again.
      this.platform.log.error({ err: failure, tenantId, topic }, 'ingest: storing a message failed');
      throw failure;
    }
    if (error) this.platform.log.warn({ tenantId, topic, stored: outcome.stored.length, error }, 'ingest: message kept with errors');
    this.announce(outcome, { id: raw.id, tenantId, deviceId, gatewayId, code, topic, payload: raw.payload, receivedAt, readings: outcome.shown, error });
  }

  /**
   * Readings that reached the platform another way (pulled from a third-party platform, docs/third-party.md), already
   * in engineering values: stored like a message's readings (the same device, key and time overwrites itself), then
   * the latest values and the `readings` event. There is no raw message to keep and no presence to update.
   */
  async acceptStored(readings: readonly StoredReading[]): Promise<void> {
    if (readings.length === 0) return;
    await this.writer.write(readings);
    for (const r of readings) this.latest.update(r.deviceId, r.pointKey, r.ts, r.value, r.ts);
    this.platform.events.emit('readings', readings);
  }

  private async accepting(tenantId: string, code: string): Promise<DeviceContext> {
    const device = await this.directory.device(code);
    if (!device || device.tenantId !== tenantId) throw new PayloadError(`设备不存在: ${code}`, 'unknown_device');
    if (!device.accepting) throw new PayloadError(`设备已停用或其项目在回收站中: ${code}`, 'disabled');
    return device;
  }

  private async calculateGateway(tenantId: string, gatewayId: string, parsed: Parsed, outcome: Outcome): Promise<void> {
    outcome.problems.push(...parsed.warnings);
    this.refused('invalid_value', parsed.warnings.length);
    const byCode = new Map<string, Reading[]>();
    for (const reading of parsed.readings) byCode.set(reading.device as string, [...(byCode.get(reading.device as string) ?? []), reading]);
    for (const [code, readings] of byCode) {
      const device = await this.directory.device(code);
      if (!device || device.tenantId !== tenantId || device.gatewayId !== gatewayId) {
        outcome.problems.push(`设备 ${code} 不存在或不属于该网关`);
        this.refused('unknown_device', valueCount(readings));
        continue;
      }
      if (!device.accepting) {
        outcome.problems.push(`设备已停用或其项目在回收站中: ${code}`);
        this.refused('disabled', valueCount(readings));
        continue;
      }
      this.calculateAll(device, { readings, warnings: [] }, outcome);
    }
  }

  private calculateAll(device: DeviceContext, parsed: Parsed, outcome: Outcome): void {
    outcome.problems.push(...parsed.warnings);
    this.refused('invalid_value', parsed.warnings.length);
    if (device.formulaError) outcome.problems.push(`型号公式错误,按原值保存: ${device.formulaError}`);
    for (const reading of parsed.readings) this.calculate(device, reading, outcome);
    outcome.seen.push(device);
  }

  /** T is the reading's own temperature, else the device's latest. */
  private calculate(device: DeviceContext, reading: Reading, outcome: Outcome): void {
    const temperature = reading.values[TEMPERATURE_KEY] ?? this.latest.get(device.id, TEMPERATURE_KEY)?.value ?? Number.NaN;
    const shown: Record<string, { raw: number; value: number }> = {};
    for (const pointKey in reading.values) {
      const x = reading.values[pointKey];
      const value = engineeringValue(device, pointKey, x, temperature);
      if (!Number.isFinite(value)) {
        outcome.problems.push(`${device.code}.${pointKey} 计算结果不是有限数 (原值 ${x})`);
        this.refused('not_finite');
        continue;
      }
      outcome.stored.push({ tenantId: device.tenantId, projectId: device.projectId, deviceId: device.id, deviceCode: device.code, pointKey, ts: reading.ts, value, raw: x });
      shown[pointKey] = { raw: x, value };
    }
    outcome.shown.push({ deviceId: device.id, code: device.code, ts: reading.ts, values: shown });
  }

  /** Counts refused data (vigil_ingest_refused_total); called on the refusals only, never per stored reading. */
  private refused(reason: RefusalReason, count = 1): void {
    if (count > 0) this.platform.metrics.refused(reason, count);
  }

  private announce(outcome: Outcome, message: DeviceMessage): void {
    for (const r of outcome.stored) this.latest.update(r.deviceId, r.pointKey, r.ts, r.value, message.receivedAt);
    for (const device of outcome.seen) {
      void this.presence
        .seen(device.id, device.tenantId, device.code, device.gatewayId, message.receivedAt)
        .catch((error) => this.platform.logs.error('ingest', error, `presence of device ${device.code}`));
    }
    const { events } = this.platform;
    if (outcome.stored.length) events.emit('readings', outcome.stored);
    events.emit('message', message);
  }
}
