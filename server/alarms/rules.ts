import { TARGET_TYPE } from '../../resources/iot/alarm';
import type { Row } from '../db/database';
import { inUse } from '../db/in-use';
import type { Platform } from '../platform';
import { type Rule, ruleOf } from './evaluate';

/** The threshold that governs one device channel, resolved from the most specific rule that covers it. */
export interface SeriesRule {
  thresholdId: string;
  projectId: string | null;
  monitorPointId: string | null;
  rule: Rule;
}

/** The tables a rule book is read from: the cache is dropped when one changes. */
const WATCHED = ['wit_device_threshold', 'wit_point_relation_device', 'wit_device_point', 'wit_device', 'wit_project'];

const seriesKey = (deviceId: string, pointKey: string) => `${deviceId}|${pointKey}`;

/**
 * Per-tenant cache of the rule of every channel. A device channel's own rule beats its monitor point's, which beats
 * a factor item rule of its project; between rules of one rank, the one made first. Loaded on first use, dropped
 * whenever a watched table changes (and by devicethreshold/rdfreshCache, which announces a change of the thresholds).
 */
export class RuleBook {
  private readonly tenants = new Map<string, Promise<Map<string, SeriesRule>>>();

  constructor(private readonly platform: Platform) {
    platform.events.whenChanged(WATCHED, () => this.tenants.clear());
  }

  /**
   * The readings that a rule governs, each with its rule, in order. One wait per tenant, not one per reading: a
   * batch is thousands of readings, most of them of channels without a rule, and each wait cost its own promises
   * (the largest allocation of a reconnecting fleet's ingestion, bench:connections).
   */
  async ruled<R extends { tenantId: string; deviceId: string; pointKey: string }>(readings: readonly R[]): Promise<Array<[R, SeriesRule]>> {
    const out: Array<[R, SeriesRule]> = [];
    let tenantId: string | undefined;
    let rules: Map<string, SeriesRule> | undefined;
    for (const reading of readings) {
      if (reading.tenantId !== tenantId || !rules) {
        tenantId = reading.tenantId;
        rules = await this.rulesOf(tenantId);
      }
      const rule = rules.get(seriesKey(reading.deviceId, reading.pointKey));
      if (rule) out.push([reading, rule]);
    }
    return out;
  }

  private rulesOf(tenantId: string): Promise<Map<string, SeriesRule>> {
    let rules = this.tenants.get(tenantId);
    if (!rules) {
      rules = this.load(tenantId);
      this.tenants.set(tenantId, rules);
      // The caller gets the failure; here it only leaves the cache, so the next lookup reads again.
      rules.catch(() => this.tenants.delete(tenantId));
    }
    return rules;
  }

  private async load(tenantId: string): Promise<Map<string, SeriesRule>> {
    const db = this.platform.db;
    const live = db.selectFrom('wit_project').select('id').where('isDeleted', '=', 0);
    const thresholds = await db
      .selectFrom('wit_device_threshold')
      .selectAll()
      .where('tenantId', '=', tenantId)
      .$call(inUse)
      .where((eb) => eb.or([eb('projectId', 'is', null), eb('projectId', 'in', live)]))
      // Of two rules of one rank for a channel (one bound to two monitor points), the one made first.
      .orderBy('id')
      .execute();
    const out = new Map<string, SeriesRule>();
    const priority = new Map<string, number>();
    const put = (deviceId: string, pointKey: string, row: Row, rank: number, monitorPointId: string | null = null) => {
      const key = seriesKey(deviceId, pointKey);
      if ((priority.get(key) ?? 99) <= rank) return;
      priority.set(key, rank);
      out.set(key, { thresholdId: String(row.id), projectId: (row.projectId as string | null) ?? null, monitorPointId, rule: ruleOf(row) });
    };
    for (const row of thresholds) {
      const type = row.targetType;
      if (type === TARGET_TYPE.devicePoint && row.deviceId && row.pointKey) put(row.deviceId, row.pointKey, row, 1);
      if (type === TARGET_TYPE.monitorPoint && row.monitorPointId) {
        for (const [deviceId, pointKey] of await this.boundChannels(row.monitorPointId)) put(deviceId, pointKey, row, 2, row.monitorPointId);
      }
      if (type === TARGET_TYPE.factorsItem && row.factorsItemId && row.projectId) {
        for (const [deviceId, pointKey] of await this.factorChannels(row.factorsItemId, row.projectId)) put(deviceId, pointKey, row, 3);
      }
    }
    return out;
  }

  /** The channels bound to a monitor point: one channel, or every channel of a device bound whole. */
  private async boundChannels(monitorPointId: string): Promise<Array<[string, string]>> {
    const db = this.platform.db;
    const bindings = await db.selectFrom('wit_point_relation_device').select(['deviceId', 'pointKey']).where('monitorPointId', '=', monitorPointId).where('isDeleted', '=', 0).execute();
    const out: Array<[string, string]> = [];
    for (const binding of bindings) {
      if (binding.pointKey) {
        out.push([binding.deviceId, binding.pointKey]);
        continue;
      }
      const points = await db.selectFrom('wit_device_point').select('pointKey').where('deviceId', '=', binding.deviceId).where('isDeleted', '=', 0).execute();
      for (const point of points) out.push([binding.deviceId, point.pointKey]);
    }
    return out;
  }

  /** Every channel of the factor item on the project's live devices. */
  private async factorChannels(factorsItemId: string, projectId: string): Promise<Array<[string, string]>> {
    const devices = this.platform.db.selectFrom('wit_device').select('id').where('projectId', '=', projectId).where('isDeleted', '=', 0);
    const points = await this.platform.db
      .selectFrom('wit_device_point')
      .select(['deviceId', 'pointKey'])
      .where('factorsItemId', '=', factorsItemId)
      .where('isDeleted', '=', 0)
      .where('deviceId', 'in', devices)
      .execute();
    return points.map((p) => [p.deviceId, p.pointKey]);
  }
}
