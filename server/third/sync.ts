import { deviceModel, deviceType } from '../../resources/iot/catalogue';
import { device, devicePoint } from '../../resources/iot/device';
import { monitorFactors, monitorFactorsItem, monitorPoint, pointRelationDevice } from '../../resources/iot/monitoring';
import { deviceCustomer, pointCustomer, thirdMonitorProject } from '../../resources/iot/third';
import type { Row } from '../db/database';
import type { Resource } from '../../resources/define';
import type { CallContext, ScopeOptions } from '../db/repository';
import { badRequest } from '../http/envelope';
import { eq, within } from '../modules/wit-xinde/common';
import type { Platform } from '../platform';
import type { Bound, ThirdBindings } from './bindings';
import type { RemoteDevice, RemoteMonitorPoint } from './types';
import { applyWrites, changesOf, clip, compact, counts, ID, messageOf, same, type SyncCounts, type Write } from './writes';

/**
 * Copying a bound remote project's devices (with their channels) and monitor points (with their device bindings)
 * into the local project, and binding remote devices one by one (docs/third-party.md "How sync matches and what it
 * changes"). A remote row goes to the local row bound to it, else to the one with its code, else to a new one; only
 * fields the remote has a value for and that differ are written, so a second run changes nothing. Everything is
 * checked first and written in one transaction, through the scoped repository. The bindings a check must see all of
 * (a remote row is bound once, a local row once) are read with `wholeTenant`: a binding in a project the caller
 * cannot see still holds its remote row.
 */

/** Reads of bindings that guard their uniqueness: every live binding of the tenant, whatever the caller's scopes. */
const ALL_BINDINGS = { wholeTenant: true } as const;

export interface DeviceSyncResult extends SyncCounts {
  points: SyncCounts;
}

export interface PointSyncResult extends SyncCounts {
  /** Device bindings of monitor points added (for remote bindings whose device is bound here). */
  relations: number;
}

/** A device (or channel) to bind to a monitor point. */
interface Relation {
  pointId: string;
  deviceId: string;
  pointKey: string | null;
}

/** Local catalogue rows by code, for the codes remote rows name. */
interface Catalogue {
  types: Map<string, Row>;
  models: Map<string, Row>;
  items: Map<string, Row>;
  factors: Map<string, Row>;
}

export class ThirdSync {
  constructor(
    private readonly platform: Platform,
    private readonly bindings: ThirdBindings,
  ) {}


  private async catalogue(ctx: CallContext, tenantId: string): Promise<Catalogue> {
    const byCode = async (resource: Parameters<Platform['repo']>[0]) =>
      new Map((await this.platform.repo(resource).all(ctx, {}, [eq('tenantId', tenantId)])).map((r) => [String(r.code), r]));
    return { types: await byCode(deviceType), models: await byCode(deviceModel), items: await byCode(monitorFactorsItem), factors: await byCode(monitorFactors) };
  }

  /** The local device's fields as the remote device has them (catalogue references matched by code). */
  private deviceValues(remote: RemoteDevice, cat: Catalogue): Row {
    const model = remote.modelCode ? cat.models.get(remote.modelCode) : undefined;
    const type = remote.deviceTypeCode ? cat.types.get(remote.deviceTypeCode) : undefined;
    return {
      name: clip(remote.name, 64),
      modelId: model?.id ?? null,
      deviceTypeId: type?.id ?? model?.deviceTypeId ?? null,
      installPosition: clip(remote.installPosition, 255),
      longitude: remote.longitude,
      latitude: remote.latitude,
      elevation: remote.elevation,
      installTime: remote.installTime,
      samplingInterval: remote.samplingInterval !== null && remote.samplingInterval >= 1 ? Math.round(remote.samplingInterval) : null,
    };
  }

  /** The remote devices of the bound project, live, each with the local device bound to it. */
  async remoteDevices(ctx: CallContext, args: { thirdParamId?: string; projectId?: string; thirdProjectId?: string }): Promise<Row[]> {
    let param: Row;
    let thirdProjectId: string;
    if (args.projectId) {
      const bound = await this.bindings.bound(ctx, args.projectId, args.thirdProjectId, args.thirdParamId);
      param = bound.param;
      thirdProjectId = String(bound.binding.thirdProjectId);
    } else {
      param = await this.bindings.param(ctx, args.thirdParamId);
      if (!args.thirdProjectId) throw badRequest('请选择第三方项目');
      thirdProjectId = args.thirdProjectId;
    }
    const devices = await this.bindings.remote(param).devices(thirdProjectId);
    const bindings = await this.platform.repo(deviceCustomer).all(ctx, {}, [eq('thirdParamId', String(param.id)), within('thirdDeviceId', devices.map((d) => d.id))]);
    const locals = await this.platform.repo(device).all(ctx, {}, [within('id', bindings.map((b) => b.deviceId))]);
    return devices.map((d) => {
      const b = bindings.find((x) => x.thirdDeviceId === d.id);
      const local = b ? locals.find((l) => l.id === b.deviceId) : undefined;
      const { points: _points, ...fields } = d;
      return { ...fields, bound: local ? 1 : 0, bindingId: local ? b?.id : null, deviceId: local?.id ?? null, deviceCode: local?.code ?? null, deviceName: local?.name ?? null };
    });
  }

  /** The live device bindings of a connection, by remote device id. */
  private async deviceBindings(ctx: CallContext, param: Row): Promise<Map<string, Row>> {
    const rows = await (await this.platform.repo(deviceCustomer).select(ctx, ALL_BINDINGS)).selectAll().where('thirdParamId', '=', String(param.id)).execute();
    return new Map(rows.map((r) => [r.thirdDeviceId, r]));
  }

  /** Whom a local device is bound to already (any connection), if anyone. */
  private async boundTo(ctx: CallContext, deviceIds: string[]): Promise<Map<string, Row>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await (await this.platform.repo(deviceCustomer).select(ctx, ALL_BINDINGS)).selectAll().where('deviceId', 'in', deviceIds).execute();
    return new Map(rows.map((r) => [r.deviceId, r]));
  }

  /** A new local device for a remote one, checked: its code (prefix + remote code) must be free on the platform. */
  private newDevice(ctx: CallContext, bound: Bound, remote: RemoteDevice, cat: Catalogue): Row {
    const code = `${String(bound.param.codePrefix ?? '')}${remote.code}`;
    let parsed: Row;
    try {
      parsed = this.platform.repo(device).parse(compact({ ...this.deviceValues(remote, cat), code, projectId: String(bound.project.id) }), false);
    } catch (error) {
      throw badRequest(`设备 ${remote.code}: ${messageOf(error)}`);
    }
    return this.platform.repo(device).build(ctx, { ...parsed, tenantId: String(bound.param.tenantId) });
  }

  /** New devices' codes are client ids of the one broker: free on the whole platform (the device's unique rule). */
  private async assertCodesFree(rows: Row[]): Promise<void> {
    const codes = rows.map((r) => String(r.code));
    if (new Set(codes).size !== codes.length) throw badRequest('第三方设备编号重复');
    const repo = this.platform.repo(device);
    for (const row of rows) {
      if (await repo.clash(row)) throw badRequest(`设备编号 ${String(row.code)} 已被其他项目或租户的设备使用,请在第三方参数中设置编号前缀`);
    }
  }

  /** Writes a new row of `resource` (its base columns already built) in the sync's transaction. */
  private inserting(ctx: CallContext, resource: Resource, row: Row): Write {
    return (trx, now) => this.platform.repo(resource).within(trx).insertMany(ctx, [row], now);
  }

  /** Updates one row of `resource` in the sync's transaction, with the audit columns. */
  private updating(ctx: CallContext, resource: Resource, id: string, changes: Row, options?: ScopeOptions): Write {
    return (trx) => this.platform.repo(resource).within(trx).updateWhere(ctx, changes, [eq('id', id)], options);
  }

  /** The writes that bring a local device's points in line with the remote device's (points are added, never removed). */
  private async pointWrites(ctx: CallContext, tenantId: string, deviceId: string, remote: RemoteDevice, cat: Catalogue, tally: SyncCounts): Promise<Write[]> {
    const repo = this.platform.repo(devicePoint);
    const existing = new Map((await (await repo.select(ctx)).selectAll().where('deviceId', '=', deviceId).execute()).map((p) => [p.pointKey, p]));
    const writes: Write[] = [];
    for (const point of remote.points) {
      tally.total++;
      const wanted = {
        name: clip(point.name, 64),
        unit: clip(point.unit, 32),
        precision: point.precision !== null && point.precision >= 0 && point.precision <= 6 ? point.precision : null,
        channel: point.channel !== null && point.channel >= 0 ? Math.round(point.channel) : null,
        sort: point.sort === null ? null : Math.round(point.sort),
        factorsItemId: point.factorsItemCode ? (cat.items.get(point.factorsItemCode)?.id ?? null) : null,
      };
      let parsed: Row;
      try {
        parsed = repo.parse(compact({ ...wanted, deviceId, pointKey: point.pointKey }), false);
      } catch (error) {
        throw badRequest(`设备 ${remote.code} 点位 ${point.pointKey}: ${messageOf(error)}`);
      }
      const local = existing.get(point.pointKey);
      if (!local) {
        tally.created++;
        writes.push(this.inserting(ctx, devicePoint, { ...parsed, tenantId }));
        continue;
      }
      const changes = changesOf(local, parsed);
      delete changes.deviceId;
      delete changes.pointKey;
      if (Object.keys(changes).length === 0) {
        tally.unchanged++;
        continue;
      }
      tally.updated++;
      writes.push(this.updating(ctx, devicePoint, local.id, changes));
    }
    return writes;
  }

  /** A binding row of a remote device to a local one (insert, or refresh of the one it has). */
  private deviceBindingWrite(ctx: CallContext, bound: Bound, remote: RemoteDevice, deviceId: string, existing: Row | undefined): Write {
    const fields = { thirdDeviceCode: clip(remote.code, 64), thirdDeviceName: clip(remote.name, 128), deviceId, projectId: String(bound.project.id), thirdProjectId: String(bound.binding.thirdProjectId) };
    const repo = this.platform.repo(deviceCustomer);
    if (existing) return (trx, now) => repo.within(trx).updateWhere(ctx, { ...fields, syncTime: now }, [eq('id', String(existing.id))], ALL_BINDINGS);
    const row = { ...fields, tenantId: String(bound.param.tenantId), thirdParamId: String(bound.param.id), thirdDeviceId: remote.id };
    return (trx, now) => repo.within(trx).insertMany(ctx, [{ ...row, syncTime: now }], now);
  }

  /**
   * syncDeviceInfo: copies the remote project's devices (with their points) into the bound local project. A remote
   * device goes to the local device bound to it, else to the project's device with its code, else to a new one.
   */
  async syncDevices(ctx: CallContext, projectId: string | undefined, ptProjectId?: string): Promise<DeviceSyncResult> {
    const bound = await this.bindings.bound(ctx, projectId, ptProjectId);
    const tenantId = String(bound.param.tenantId);
    const remotes = await this.bindings.remote(bound.param).devices(String(bound.binding.thirdProjectId), true);
    const cat = await this.catalogue(ctx, tenantId);
    const bindings = await this.deviceBindings(ctx, bound.param);
    const prefix = String(bound.param.codePrefix ?? '');
    const locals = await this.platform.repo(device).all(ctx, {}, [eq('projectId', String(bound.project.id)), eq('tenantId', tenantId)]);
    const takenBy = await this.boundTo(ctx, locals.map((d) => d.id));
    const result: DeviceSyncResult = { ...counts(), points: counts() };
    const writes: Write[] = [];
    const created: Row[] = [];
    for (const remote of remotes) {
      result.total++;
      const binding = bindings.get(remote.id);
      const viaBinding = binding ? locals.find((d) => d.id === binding.deviceId) : undefined;
      if (binding && !viaBinding && binding.projectId !== bound.project.id) throw badRequest(`第三方设备 ${remote.code} 已绑定其他项目的设备`);
      const local = viaBinding ?? locals.find((d) => d.code === `${prefix}${remote.code}`);
      if (local && !viaBinding) {
        const other = takenBy.get(local.id);
        if (other && (other.thirdParamId !== bound.param.id || other.thirdDeviceId !== remote.id)) throw badRequest(`本地设备 ${local.code} 已绑定其他第三方设备`);
      }
      if (!local) {
        const row = this.newDevice(ctx, bound, remote, cat);
        created.push(row);
        result.created++;
        writes.push(this.inserting(ctx, device, row));
        writes.push(...(await this.pointWrites(ctx, tenantId, String(row.id), remote, cat, result.points)));
        writes.push(this.deviceBindingWrite(ctx, bound, remote, String(row.id), binding));
        continue;
      }
      let changes: Row;
      try {
        changes = changesOf(local, this.platform.repo(device).parse(compact(this.deviceValues(remote, cat)), true));
      } catch (error) {
        throw badRequest(`设备 ${remote.code}: ${messageOf(error)}`);
      }
      const points = await this.pointWrites(ctx, tenantId, local.id, remote, cat, result.points);
      const bindingFresh = binding && binding.deviceId === local.id && same(binding.thirdDeviceCode, remote.code) && same(binding.thirdDeviceName, clip(remote.name, 128));
      if (Object.keys(changes).length === 0 && points.length === 0 && bindingFresh) {
        result.unchanged++;
        continue;
      }
      result.updated++;
      if (Object.keys(changes).length) writes.push(this.updating(ctx, device, local.id, changes));
      writes.push(...points);
      if (!bindingFresh) writes.push(this.deviceBindingWrite(ctx, bound, remote, local.id, binding));
    }
    await this.assertCodesFree(created);
    writes.push(this.synced(ctx, bound));
    await applyWrites(this.platform, writes);
    return result;
  }

  /**
   * bingDevice: `devices: [{thirdDeviceId, deviceId}]` — `deviceId` a local device of the project binds to it,
   * `new` creates a local device (with its points) for the remote one, empty unbinds it. A device is bound to one
   * remote device at most, and the other way round.
   */
  async bindDevices(ctx: CallContext, args: { projectId?: string; thirdProjectId?: string; thirdParamId?: string }, items: unknown): Promise<{ bound: number; created: number; unbound: number }> {
    if (!Array.isArray(items) || items.length === 0) throw badRequest('请选择要绑定的设备');
    if (items.length > 1000) throw badRequest('一次最多绑定1000台设备');
    const bound = await this.bindings.bound(ctx, args.projectId, args.thirdProjectId, args.thirdParamId);
    const tenantId = String(bound.param.tenantId);
    const wanted = items.map((item, index) => {
      const entry = item && typeof item === 'object' ? (item as Row) : {};
      const thirdDeviceId = entry.thirdDeviceId === undefined || entry.thirdDeviceId === null ? '' : String(entry.thirdDeviceId).trim();
      const deviceId = entry.deviceId === undefined || entry.deviceId === null || entry.deviceId === '0' ? '' : String(entry.deviceId).trim();
      if (!thirdDeviceId) throw badRequest(`第${index + 1}条: 请选择第三方设备`);
      if (deviceId && deviceId !== 'new' && !ID.test(deviceId)) throw badRequest(`第${index + 1}条: 设备编号不正确`);
      return { index, thirdDeviceId, deviceId };
    });
    if (new Set(wanted.map((w) => w.thirdDeviceId)).size !== wanted.length) throw badRequest('第三方设备重复');
    const remotes = new Map((await this.bindings.remote(bound.param).devices(String(bound.binding.thirdProjectId), wanted.some((w) => w.deviceId === 'new'))).map((d) => [d.id, d]));
    const locals = new Map((await this.platform.repo(device).all(ctx, {}, [eq('projectId', String(bound.project.id)), eq('tenantId', tenantId)])).map((d) => [d.id, d]));
    const bindings = await this.deviceBindings(ctx, bound.param);
    // The bindings as they will be: the project's current ones with the request's changes.
    const final = new Map<string, string>();
    for (const [thirdDeviceId, b] of bindings) if (b.projectId === bound.project.id) final.set(thirdDeviceId, String(b.deviceId));
    for (const w of wanted) {
      const remote = remotes.get(w.thirdDeviceId);
      if (!remote) throw badRequest(`第${w.index + 1}条: 第三方设备不存在或不属于该第三方项目`);
      const other = bindings.get(w.thirdDeviceId);
      if (other && other.projectId !== bound.project.id) throw badRequest(`第${w.index + 1}条: 第三方设备 ${remote.code} 已绑定其他项目的设备`);
      if (w.deviceId && w.deviceId !== 'new' && !locals.has(w.deviceId)) throw badRequest(`第${w.index + 1}条: 设备不存在或不属于该项目`);
      if (w.deviceId) final.set(w.thirdDeviceId, w.deviceId);
      else final.delete(w.thirdDeviceId);
    }
    const targets = [...final.values()].filter((id) => id !== 'new');
    if (new Set(targets).size !== targets.length) throw badRequest('一台本地设备只能绑定一台第三方设备');
    // Bindings of this project and connection all end as `final` says; a device bound anywhere else stays there.
    for (const [deviceId, b] of await this.boundTo(ctx, targets)) {
      if (b.thirdParamId !== bound.param.id || b.projectId !== bound.project.id) throw badRequest(`设备 ${String(locals.get(deviceId)?.code ?? deviceId)} 已绑定其他第三方设备`);
    }
    const cat = wanted.some((w) => w.deviceId === 'new') ? await this.catalogue(ctx, tenantId) : undefined;
    const writes: Write[] = [];
    const created: Row[] = [];
    const tally = { bound: 0, created: 0, unbound: 0 };
    for (const w of wanted) {
      const remote = remotes.get(w.thirdDeviceId) as RemoteDevice;
      const existing = bindings.get(w.thirdDeviceId);
      if (!w.deviceId) {
        if (!existing) continue;
        tally.unbound++;
        writes.push(this.updating(ctx, deviceCustomer, String(existing.id), { isDeleted: 1 }, ALL_BINDINGS));
        continue;
      }
      let deviceId = w.deviceId;
      if (deviceId === 'new') {
        const row = this.newDevice(ctx, bound, remote, cat as Catalogue);
        created.push(row);
        deviceId = String(row.id);
        writes.push(this.inserting(ctx, device, row));
        writes.push(...(await this.pointWrites(ctx, tenantId, deviceId, remote, cat as Catalogue, counts())));
        tally.created++;
      }
      tally.bound++;
      writes.push(this.deviceBindingWrite(ctx, bound, remote, deviceId, existing));
    }
    await this.assertCodesFree(created);
    await applyWrites(this.platform, writes);
    return tally;
  }

  private pointValues(remote: RemoteMonitorPoint, cat: Catalogue): Row {
    return {
      name: clip(remote.name, 64),
      factorsId: remote.factorsCode ? (cat.factors.get(remote.factorsCode)?.id ?? null) : null,
      position: clip(remote.position, 255),
      longitude: remote.longitude,
      latitude: remote.latitude,
      elevation: remote.elevation,
      initialValue: remote.initialValue,
      initialTime: remote.initialTime,
      sort: remote.sort === null ? null : Math.round(remote.sort),
    };
  }

  /**
   * syncPointInfo: copies the remote project's monitor points into the bound local project (matched by binding, else
   * by code) and adds the device bindings of those points whose remote devices are bound to local ones.
   */
  async syncPoints(ctx: CallContext, projectId: string | undefined, ptProjectId?: string): Promise<PointSyncResult> {
    const bound = await this.bindings.bound(ctx, projectId, ptProjectId);
    const tenantId = String(bound.param.tenantId);
    const localProjectId = String(bound.project.id);
    const remotes = await this.bindings.remote(bound.param).monitorPoints(String(bound.binding.thirdProjectId));
    const cat = await this.catalogue(ctx, tenantId);
    const repo = this.platform.repo(monitorPoint);
    const locals = await repo.all(ctx, {}, [eq('projectId', localProjectId), eq('tenantId', tenantId)]);
    const pointBindings = () => this.platform.repo(pointCustomer).select(ctx, ALL_BINDINGS).then((qb) => qb.selectAll());
    const bindings = new Map((await (await pointBindings()).where('thirdParamId', '=', String(bound.param.id)).execute()).map((r) => [r.thirdPointId, r]));
    const pointBound = new Map(
      (await (await pointBindings()).where(within('monitorPointId', locals.map((l) => l.id))).execute()).map((r) => [r.monitorPointId, r]),
    );
    const devices = await this.deviceBindings(ctx, bound.param);
    const result: PointSyncResult = { ...counts(), relations: 0 };
    const writes: Write[] = [];
    const relations: Relation[] = [];
    for (const remote of remotes) {
      result.total++;
      const binding = bindings.get(remote.id);
      const viaBinding = binding ? locals.find((l) => l.id === binding.monitorPointId) : undefined;
      if (binding && !viaBinding && binding.projectId !== localProjectId) throw badRequest(`第三方测点 ${remote.code} 已绑定其他项目的监测点`);
      const local = viaBinding ?? locals.find((l) => l.code === remote.code);
      if (local && !viaBinding) {
        const other = pointBound.get(local.id);
        if (other && (other.thirdParamId !== bound.param.id || other.thirdPointId !== remote.id)) throw badRequest(`本地监测点 ${local.code} 已绑定其他第三方测点`);
      }
      let parsed: Row;
      try {
        parsed = repo.parse(compact({ ...this.pointValues(remote, cat), ...(local ? {} : { projectId: localProjectId, code: remote.code }) }), !!local);
      } catch (error) {
        throw badRequest(`测点 ${remote.code}: ${messageOf(error)}`);
      }
      const fields = { thirdPointCode: clip(remote.code, 64), thirdPointName: clip(remote.name, 128), projectId: localProjectId, thirdProjectId: String(bound.binding.thirdProjectId) };
      let pointId: string;
      if (!local) {
        const row = repo.build(ctx, { ...parsed, tenantId });
        pointId = String(row.id);
        result.created++;
        writes.push(this.inserting(ctx, monitorPoint, row));
      } else {
        pointId = local.id;
        const changes = changesOf(local, parsed);
        const bindingFresh = binding && binding.monitorPointId === local.id && same(binding.thirdPointCode, fields.thirdPointCode) && same(binding.thirdPointName, fields.thirdPointName);
        if (Object.keys(changes).length === 0 && bindingFresh) result.unchanged++;
        else result.updated++;
        if (Object.keys(changes).length) writes.push(this.updating(ctx, monitorPoint, pointId, changes));
        if (bindingFresh) {
          this.collectRelations(remote, devices, pointId, relations);
          continue;
        }
      }
      const bindingRepo = this.platform.repo(pointCustomer);
      const linked = { ...fields, monitorPointId: pointId };
      writes.push(
        binding
          ? (trx, now) => bindingRepo.within(trx).updateWhere(ctx, { ...linked, syncTime: now }, [eq('id', binding.id)], ALL_BINDINGS)
          : (trx, now) => bindingRepo.within(trx).insertMany(ctx, [{ ...linked, tenantId, thirdParamId: String(bound.param.id), thirdPointId: remote.id, syncTime: now }], now),
      );
      this.collectRelations(remote, devices, pointId, relations);
    }
    writes.push(...(await this.relationWrites(ctx, tenantId, relations, result)));
    writes.push(this.synced(ctx, bound));
    await applyWrites(this.platform, writes);
    return result;
  }

  /** Stamps the project binding with the time of the sync. */
  private synced(ctx: CallContext, bound: Bound): Write {
    return (trx, now) => this.platform.repo(thirdMonitorProject).within(trx).updateWhere(ctx, { syncTime: now }, [eq('id', String(bound.binding.id))]);
  }

  private collectRelations(remote: RemoteMonitorPoint, devices: Map<string, Row>, pointId: string, out: Relation[]): void {
    for (const link of remote.devices) {
      const b = devices.get(link.deviceId);
      if (b) out.push({ pointId, deviceId: String(b.deviceId), pointKey: link.pointKey });
    }
  }

  /** Device bindings of monitor points that do not exist yet, for devices (and channels) the local side has. */
  private async relationWrites(ctx: CallContext, tenantId: string, wanted: Relation[], result: PointSyncResult): Promise<Write[]> {
    if (wanted.length === 0) return [];
    const deviceIds = [...new Set(wanted.map((w) => w.deviceId))];
    const scoped = (resource: Resource, options?: ScopeOptions) => this.platform.repo(resource).select(ctx, options);
    const live = new Set((await (await scoped(device)).select('id').where('id', 'in', deviceIds).where('tenantId', '=', tenantId).execute()).map((r) => String(r.id)));
    const channels = new Set(
      (await (await scoped(devicePoint)).select(['deviceId', 'pointKey']).where('deviceId', 'in', deviceIds).execute()).map((r) => `${String(r.deviceId)}|${String(r.pointKey)}`),
    );
    // Every binding of the devices, also of points the caller cannot see: a relation is added once.
    const existing = new Set(
      (await (await scoped(pointRelationDevice, { wholeTenant: true })).select(['monitorPointId', 'deviceId', 'pointKey']).where('deviceId', 'in', deviceIds).execute()).map(
        (r) => `${String(r.monitorPointId)}|${String(r.deviceId)}|${String(r.pointKey ?? '')}`,
      ),
    );
    const writes: Write[] = [];
    for (const w of wanted) {
      const key = `${w.pointId}|${w.deviceId}|${w.pointKey ?? ''}`;
      if (!live.has(w.deviceId) || existing.has(key) || (w.pointKey && !channels.has(`${w.deviceId}|${w.pointKey}`))) continue;
      existing.add(key);
      result.relations++;
      writes.push(this.inserting(ctx, pointRelationDevice, { monitorPointId: w.pointId, deviceId: w.deviceId, pointKey: w.pointKey, tenantId }));
    }
    return writes;
  }

}
