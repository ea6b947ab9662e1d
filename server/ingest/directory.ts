import { Batched } from '../db/batched';
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
  compensation: ReadonlyMap<string, Coefficient>;
}

/** A temperature coefficient of a model channel. */
interface Coefficient {
  k: number;
  t0: number;
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

const unique = <T>(values: Array<T | null | undefined>): T[] => [...new Set(values.filter((v): v is T => v !== null && v !== undefined && v !== ''))];

/**
 * Devices and gateways by code (codes are unique on the platform: they are MQTT client ids), cached until one of
 * the tables they are read from changes, and for a minute at most (changes made by another process). Codes asked for
 * together (a fleet reconnecting) are read together: a few queries per batch, not per device.
 */
export class Directory {
  private readonly devices = new Map<string, { at: number; value: Promise<DeviceContext | undefined> }>();
  private readonly gateways = new Map<string, { at: number; value: Promise<GatewayContext | undefined> }>();
  private readonly deviceLookup = new Batched<DeviceContext>((codes) => this.loadDevices(codes));
  private readonly gatewayLookup = new Batched<GatewayContext>((codes) => this.loadGateways(codes));

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
    return this.cached(this.devices, code, () => this.deviceLookup.get(code));
  }

  /** Read now, bypassing the cache (recalculation must use the formula as it is this instant). */
  async fresh(code: string): Promise<DeviceContext | undefined> {
    return (await this.loadDevices([code])).get(code);
  }

  gateway(code: string): Promise<GatewayContext | undefined> {
    return this.cached(this.gateways, code, () => this.gatewayLookup.get(code));
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

  /** Of these projects, those not in the recycle bin. */
  private async liveProjects(projectIds: string[]): Promise<Set<string>> {
    if (projectIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('wit_project').select('id').where('id', 'in', projectIds).where('isDeleted', '=', 0).execute();
    return new Set(rows.map((row) => row.id));
  }

  private async loadGateways(codes: string[]): Promise<Map<string, GatewayContext>> {
    const rows = await this.db
      .selectFrom('wit_gateway')
      .select(['id', 'code', 'tenantId', 'projectId', 'status'])
      .where('code', 'in', codes)
      .where('isDeleted', '=', 0)
      .execute();
    const live = await this.liveProjects(unique(rows.map((row) => row.projectId as string | null)));
    return new Map(
      rows.map((row) => {
        const projectId = (row.projectId as string | null) ?? null;
        const accepting = row.status === 1 && (!projectId || live.has(projectId));
        return [row.code, { id: row.id, code: row.code, tenantId: row.tenantId, projectId, accepting }];
      }),
    );
  }

  private async loadDevices(codes: string[]): Promise<Map<string, DeviceContext>> {
    const rows = await this.db
      .selectFrom('wit_device')
      .select(['id', 'code', 'tenantId', 'projectId', 'gatewayId', 'modelId', 'initialValues', 'status'])
      .where('code', 'in', codes)
      .where('isDeleted', '=', 0)
      .execute();
    if (rows.length === 0) return new Map();
    const modelIds = unique(rows.map((row) => row.modelId as string | null));
    const [formulas, live, compensation] = await Promise.all([
      this.formulas(modelIds),
      this.liveProjects(unique(rows.map((row) => row.projectId as string | null))),
      this.compensation(rows.map((row) => ({ id: row.id, modelId: row.modelId as string | null }))),
    ]);
    return new Map(
      rows.map((row) => {
        const projectId = (row.projectId as string | null) ?? null;
        const formula = formulas.get(row.modelId as string) ?? { formulaOf: compileModelFormula(null) };
        const device: DeviceContext = {
          id: row.id,
          code: row.code,
          tenantId: row.tenantId,
          projectId,
          gatewayId: (row.gatewayId as string | null) ?? null,
          accepting: row.status === 1 && (!projectId || live.has(projectId)),
          ...formula,
          initial: numbers(row.initialValues),
          compensation: compensation.get(row.id) ?? new Map(),
        };
        return [row.code, device];
      }),
    );
  }

  /** Each model's formula, compiled once for all its devices; a model that does not compile stores values as sent. */
  private async formulas(modelIds: string[]): Promise<Map<string, Pick<DeviceContext, 'formulaOf' | 'formulaError'>>> {
    if (modelIds.length === 0) return new Map();
    const models = await this.db.selectFrom('wit_device_model').select(['id', 'formula']).where('id', 'in', modelIds).where('isDeleted', '=', 0).execute();
    const byId = new Map(models.map((model) => [model.id, model.formula as string | null]));
    return new Map(
      modelIds.map((id) => {
        try {
          return [id, { formulaOf: compileModelFormula(byId.get(id)) }];
        } catch (error) {
          return [id, { formulaOf: compileModelFormula(null), formulaError: error instanceof FormulaError ? error.message : String(error) }];
        }
      }),
    );
  }

  /** Coefficients are kept per model channel; a device point names its channel. By device id. */
  private async compensation(devices: Array<{ id: string; modelId: string | null }>): Promise<Map<string, Map<string, Coefficient>>> {
    const modelIds = unique(devices.map((device) => device.modelId));
    if (modelIds.length === 0) return new Map();
    const coefficients = await this.db
      .selectFrom('wit_temperature_coefficient')
      .select(['modelId', 'channel', 'coefficient', 'referenceTemperature'])
      .where('modelId', 'in', modelIds)
      .where('isDeleted', '=', 0)
      .execute();
    const byModel = new Map<string, Map<number, Coefficient>>();
    for (const c of coefficients) {
      const channels = byModel.get(c.modelId) ?? new Map<number, Coefficient>();
      channels.set(c.channel, { k: c.coefficient, t0: Number(c.referenceTemperature ?? 20) });
      byModel.set(c.modelId, channels);
    }
    const compensated = devices.filter((device) => device.modelId && byModel.has(device.modelId));
    if (compensated.length === 0) return new Map();
    const modelOf = new Map(compensated.map((device) => [device.id, device.modelId as string]));
    const points = await this.db
      .selectFrom('wit_device_point')
      .select(['deviceId', 'pointKey', 'channel'])
      .where('deviceId', 'in', [...modelOf.keys()])
      .where('isDeleted', '=', 0)
      .execute();
    const out = new Map<string, Map<string, Coefficient>>();
    for (const point of points) {
      const coefficient = point.channel === null ? undefined : byModel.get(modelOf.get(point.deviceId) as string)?.get(point.channel);
      if (!coefficient) continue;
      const keys = out.get(point.deviceId) ?? new Map<string, Coefficient>();
      keys.set(point.pointKey, coefficient);
      out.set(point.deviceId, keys);
    }
    return out;
  }
}
