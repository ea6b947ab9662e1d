import type { Db } from '../db/database';
import type { EventBus } from '../events';
import { compileModelFormula, type Formula, FormulaError } from './formula';

/** What the pipeline needs to know about a device to turn its raw values into engineering values. */
export interface DeviceContext {
  id: string;
  code: string;
  tenantId: string;
  projectId: string | null;
  gatewayId: string | null;
  /** Enabled, not deleted, and not in a project that sits in the recycle bin: its data is stored. */
  accepting: boolean;
  formulaOf(pointKey: string): Formula;
  /** Set when the model's formula does not compile; values are then stored as sent. */
  formulaError?: string;
  initial: Readonly<Record<string, number>>;
  /** Temperature compensation by point key: corrected = value + k × (T − T0). */
  compensation: ReadonlyMap<string, { k: number; t0: number }>;
}

export interface GatewayContext {
  id: string;
  code: string;
  tenantId: string;
  projectId: string | null;
  accepting: boolean;
}

/** The channel whose value is the device's own temperature, used for compensation. */
export const TEMPERATURE_KEY = 'temperature';

const TTL_MS = 60_000;
const WATCHED = ['wit_device', 'wit_device_model', 'wit_device_point', 'wit_temperature_coefficient', 'wit_project', 'wit_gateway'];

function numbers(json: unknown): Record<string, number> {
  if (typeof json !== 'string' || json === '') return {};
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === 'number'));
  } catch {
    // Saving validates it (resources/iot/device.ts); a value stored around the API counts as none.
    return {};
  }
}

/**
 * Devices and gateways by code (codes are unique on the platform: they are MQTT client ids), cached until one of
 * the tables they are read from changes, and for a minute at most (changes made by another process).
 */
export class Directory {
  private readonly devices = new Map<string, { at: number; value: Promise<DeviceContext | undefined> }>();
  private readonly gateways = new Map<string, { at: number; value: Promise<GatewayContext | undefined> }>();

  constructor(
    private readonly db: Db,
    events: EventBus,
  ) {
    events.whenChanged(WATCHED, () => this.clear());
  }

  clear(): void {
    this.devices.clear();
    this.gateways.clear();
  }

  device(code: string): Promise<DeviceContext | undefined> {
    return this.cached(this.devices, code, () => this.loadDevice(code));
  }

  /** Read now, bypassing the cache (recalculation must use the formula as it is this instant). */
  fresh(code: string): Promise<DeviceContext | undefined> {
    return this.loadDevice(code);
  }

  gateway(code: string): Promise<GatewayContext | undefined> {
    return this.cached(this.gateways, code, () => this.loadGateway(code));
  }

  private cached<T>(map: Map<string, { at: number; value: Promise<T> }>, key: string, load: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const value = load();
    map.set(key, { at: Date.now(), value });
    // The caller gets the failure; here it only leaves the cache, so the next lookup reads again.
    value.catch(() => map.delete(key));
    return value;
  }

  private async projectLive(projectId: string | null): Promise<boolean> {
    if (!projectId) return true;
    const project = await this.db.selectFrom('wit_project').select('isDeleted').where('id', '=', projectId).executeTakeFirst();
    return !!project && project.isDeleted === 0;
  }

  private async loadGateway(code: string): Promise<GatewayContext | undefined> {
    const row = await this.db
      .selectFrom('wit_gateway')
      .select(['id', 'tenantId', 'projectId', 'status'])
      .where('code', '=', code)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    if (!row) return undefined;
    const accepting = row.status === 1 && (await this.projectLive(row.projectId as string | null));
    return { id: row.id, code, tenantId: row.tenantId, projectId: (row.projectId as string | null) ?? null, accepting };
  }

  private async loadDevice(code: string): Promise<DeviceContext | undefined> {
    const row = await this.db
      .selectFrom('wit_device')
      .select(['id', 'tenantId', 'projectId', 'gatewayId', 'modelId', 'initialValues', 'status'])
      .where('code', '=', code)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    if (!row) return undefined;
    const id = row.id;
    const projectId = (row.projectId as string | null) ?? null;
    const model = row.modelId
      ? await this.db.selectFrom('wit_device_model').select('formula').where('id', '=', row.modelId as string).where('isDeleted', '=', 0).executeTakeFirst()
      : undefined;
    let formulaOf = compileModelFormula(null);
    let formulaError: string | undefined;
    try {
      formulaOf = compileModelFormula(model?.formula as string | null | undefined);
    } catch (error) {
      formulaError = error instanceof FormulaError ? error.message : String(error);
    }
    return {
      id,
      code,
      tenantId: row.tenantId,
      projectId,
      gatewayId: (row.gatewayId as string | null) ?? null,
      accepting: row.status === 1 && (await this.projectLive(projectId)),
      formulaOf,
      formulaError,
      initial: numbers(row.initialValues),
      compensation: row.modelId ? await this.compensation(id, row.modelId) : new Map(),
    };
  }

  /** Coefficients are kept per model channel; a device point names its channel. */
  private async compensation(deviceId: string, modelId: string): Promise<Map<string, { k: number; t0: number }>> {
    const coefficients = await this.db
      .selectFrom('wit_temperature_coefficient')
      .select(['channel', 'coefficient', 'referenceTemperature'])
      .where('modelId', '=', modelId)
      .where('isDeleted', '=', 0)
      .execute();
    if (coefficients.length === 0) return new Map();
    const byChannel = new Map(coefficients.map((c) => [c.channel, { k: c.coefficient, t0: Number(c.referenceTemperature ?? 20) }]));
    const points = await this.db
      .selectFrom('wit_device_point')
      .select(['pointKey', 'channel'])
      .where('deviceId', '=', deviceId)
      .where('isDeleted', '=', 0)
      .execute();
    const out = new Map<string, { k: number; t0: number }>();
    for (const point of points) {
      const coefficient = point.channel === null ? undefined : byChannel.get(point.channel);
      if (coefficient) out.set(point.pointKey, coefficient);
    }
    return out;
  }
}
