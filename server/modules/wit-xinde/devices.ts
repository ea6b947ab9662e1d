import type { FastifyInstance } from 'fastify';
import { deviceModel, modelAgreement, protocol, protocolPoint } from '../../../resources/iot/catalogue';
import { device, deviceGroup, devicePoint, gateway, } from '../../../resources/iot/device';
import { pointRelationDevice } from '../../../resources/iot/monitoring';
import { project, userProject } from '../../../resources/iot/project';
import type { Resource } from '../../../resources/define';
import { isPlatformAdmin } from '../../auth/principal';
import type { Row } from '../../db/database';
import { referencedRows, withReferenceNames } from '../../db/references';
import { type CallContext, transact } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { bodyOf, contextOf, idsOf, paramsOf, requiredText, text } from '../../http/context';
import { registerCrud, saveWithHooks } from '../../http/crud';
import { badRequest, ok, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { attach, forest } from '../../http/trees';
import { argsOf, assertCodeUnbound, assertNoCycle, countOf, distinct, eq, idArg, namedRows, nodeOf, truthy, WHOLE_TENANT, within } from './common';
import { parseObject } from './devicelog/shared';
import { registerPointSheet } from './point-sheet';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

/** Fields `setting` may change on many devices at once. */
const SETTABLE = ['projectId', 'gatewayId', 'groupId', 'modelId', 'deviceTypeId', 'samplingInterval', 'status'] as const;

class Devices {
  readonly repo;
  readonly groups;

  constructor(private readonly platform: Platform) {
    this.repo = platform.repo(device);
    this.groups = platform.repo(deviceGroup);
  }

  /**
   * The checks of a device write: references live in the row's tenant (found by the CRUD builder, or here for the
   * batch calls), the type follows the model when not given, and the group and gateway belong to the device's project.
   */
  async prepare(ctx: CallContext, values: Row, existing: Row | undefined, referenced?: ReadonlyMap<string, Row>): Promise<Row> {
    await assertCodeUnbound(this.platform, ctx, values, existing, 'device');
    const found = referenced ?? (await referencedRows(this.platform, ctx, device, values, existing));
    const out = { ...values };
    const model = found.get('modelId');
    if (model && !out.deviceTypeId && !existing?.deviceTypeId) out.deviceTypeId = model.deviceTypeId ?? null;
    const projectId = (out.projectId !== undefined ? out.projectId : existing?.projectId) ?? null;
    // A group or gateway kept from before must also fit a changed project.
    const group = found.get('groupId') ?? (await this.kept(ctx, deviceGroup, out, existing, 'groupId'));
    if (group && group.projectId !== projectId) throw badRequest('设备分组不属于该项目');
    const gw = found.get('gatewayId') ?? (await this.kept(ctx, gateway, out, existing, 'gatewayId'));
    if (gw?.projectId && gw.projectId !== projectId) throw badRequest('网关不属于该项目');
    return out;
  }

  /** The row an existing device keeps naming in `field` when the write leaves the field alone. */
  private async kept(ctx: CallContext, resource: Resource, values: Row, existing: Row | undefined, field: string): Promise<Row | undefined> {
    const id = values[field] === undefined ? existing?.[field] : undefined;
    if (typeof id !== 'string' || id === '' || id === '0') return undefined;
    return (await this.platform.repo(resource).all(ctx, {}, [eq('id', id)], 1))[0];
  }

  /** Validates every device first, then inserts them all in one transaction; returns the stored rows. */
  async saveBatch(ctx: CallContext, body: unknown): Promise<Row[]> {
    const list = Array.isArray(body) ? body : undefined;
    if (!list || list.length === 0) throw badRequest('请提交设备列表');
    if (list.length > 1000) throw badRequest('一次最多保存1000台设备');
    const now = formatDateTime();
    const rows: Row[] = [];
    for (const [index, item] of list.entries()) {
      try {
        if (item && typeof item === 'object' && 'id' in item && (item as Row).id) throw badRequest('新增数据不能带编号');
        const values = await this.prepare(ctx, this.repo.parse(item, false), undefined);
        rows.push(this.repo.build(ctx, values, now));
      } catch (error) {
        throw badRequest(`第${index + 1}台设备: ${(error as Error).message}`);
      }
    }
    const codes = rows.map((r) => String(r.code));
    if (new Set(codes).size !== codes.length) throw badRequest('设备编号重复');
    // Codes are client ids of the one broker: free on the whole platform (the device's unique rule).
    for (const row of rows) if (await this.repo.clash(row)) throw badRequest(`设备编号已存在: ${String(row.code)}`);
    return transact(this.platform, (trx) => this.repo.within(trx).insertMany(ctx, rows, now));
  }

  /** Sets the same fields on many devices, checked like a save of each, in one statement. */
  async setting(ctx: CallContext, args: Record<string, unknown>): Promise<number> {
    const ids = idsOf(args);
    const picked: Row = {};
    for (const field of SETTABLE) if (field in args) picked[field] = args[field] === '' ? null : args[field];
    if (Object.keys(picked).length === 0) throw badRequest('请选择要设置的内容');
    const values = this.repo.parse(picked, true);
    const rows = await this.repo.all(ctx, {}, [within('id', ids)]);
    if (rows.length !== new Set(ids).size) throw badRequest('数据不存在或无权操作');
    for (const row of rows) await this.prepare(ctx, values, row);
    return this.repo.updateWhere(ctx, values, [within('id', ids)]);
  }

  /** How many live devices use a model, named by `modelId` or `modelCode`. */
  async modelIdsOf(ctx: CallContext, args: Record<string, unknown>): Promise<string[]> {
    const modelId = idArg(args, 'modelId');
    if (modelId) return [modelId];
    const modelCode = requiredText(args, 'modelCode');
    return (await this.platform.repo(deviceModel).all(ctx, {}, [eq('code', modelCode)])).map((m) => m.id);
  }

  /**
   * One level of the project tree (project -> groups by level -> devices). `parentId` names a project or a group
   * (absent: the projects, or the top of `projectId`); `level` is the deepest group level shown; devices come only
   * with isLoadDev.
   */
  async lazyList(ctx: CallContext, args: Record<string, unknown>) {
    const parentId = idArg(args, 'parentId');
    const projectId = idArg(args, 'projectId');
    const levelText = text(args, 'level');
    const maxLevel = levelText === undefined ? Infinity : Number(levelText);
    if (!Number.isInteger(maxLevel) && maxLevel !== Infinity) throw paramType('level');
    const withDevices = truthy(args, 'isLoadDev');
    const [group] = parentId && parentId !== '0' ? await this.groups.all(ctx, {}, [eq('id', parentId)], 1) : [];
    if (group) return this.groupLevel(ctx, group.projectId, group.id, Number(group.level) + 1, maxLevel, withDevices);
    const top = parentId && parentId !== '0' ? parentId : projectId;
    if (top) {
      const [found] = await this.platform.repo(project).all(ctx, {}, [eq('id', top)], 1);
      if (!found) return [];
      return this.groupLevel(ctx, top, '0', 1, maxLevel, withDevices);
    }
    const projects = await this.platform.repo(project).all(ctx, {});
    const groups = await this.groups.all(ctx, {}, [within('projectId', projects.map((p) => p.id)), eq('parentId', '0')]);
    const devices = withDevices ? await this.repo.all(ctx, {}, [within('projectId', projects.map((p) => p.id))], 100_000) : [];
    return projects.map((p) => ({
      ...nodeOf('project', p, '0', p.name, { projectId: p.id, level: 0 }),
      hasChildren: (maxLevel >= 1 && groups.some((g) => g.projectId === p.id)) || devices.some((d) => d.projectId === p.id),
    }));
  }

  /** The child groups (while within maxLevel) and, with devices, the devices directly in `groupId` ('0': none). */
  private async groupLevel(ctx: CallContext, projectId: string, groupId: string, level: number, maxLevel: number, withDevices: boolean) {
    const groups = level <= maxLevel ? await this.groups.all(ctx, {}, [eq('projectId', projectId), eq('parentId', groupId)]) : [];
    const subGroups = await this.groups.all(ctx, {}, [within('parentId', groups.map((g) => g.id))]);
    const inGroups = withDevices ? await this.repo.all(ctx, {}, [within('groupId', groups.map((g) => g.id))], 100_000) : [];
    const groupNodes = groups.map((g) => ({
      ...nodeOf('group', g, groupId === '0' ? projectId : groupId, g.name, { projectId, level: g.level }),
      hasChildren: (Number(g.level) + 1 <= maxLevel && subGroups.some((s) => s.parentId === g.id)) || inGroups.some((d) => d.groupId === g.id),
    }));
    if (!withDevices) return groupNodes;
    const here: Condition = groupId === '0' ? (eb) => eb.or([eb('groupId', 'is', null), eb('groupId', '=', '0')]) : eq('groupId', groupId);
    const devices = await this.repo.all(ctx, {}, [eq('projectId', projectId), here]);
    const deviceNodes = devices.map((d) =>
      nodeOf('device', d, groupId === '0' ? projectId : groupId, d.name, { projectId, code: d.code, online: d.online, modelId: d.modelId, level }),
    );
    return [...groupNodes, ...deviceNodes];
  }

  /** Projects with their devices; with isUser and userId only the projects that user is assigned (if any). */
  async treeList(ctx: CallContext, args: Record<string, unknown>) {
    const conditions: Condition[] = [];
    const projectId = idArg(args, 'projectId');
    if (projectId) conditions.push(eq('id', projectId));
    const userId = idArg(args, 'userId');
    if (truthy(args, 'isUser') && userId) {
      // The user's assignments in the tenant, all of them: the caller's own scope limits the projects below.
      const assigned = await (await this.platform.repo(userProject).select(ctx, WHOLE_TENANT)).select('projectId').where('userId', '=', userId).execute();
      if (assigned.length) conditions.push(within('id', assigned.map((a) => a.projectId)));
    }
    const projects = await this.platform.repo(project).all(ctx, {}, conditions);
    const devices = await this.repo.all(ctx, {}, [within('projectId', projects.map((p) => p.id))], 100_000);
    return attach(
      projects.map((p) => nodeOf('project', p, '0')),
      devices.map((d) => nodeOf('device', d, String(d.projectId), d.name, { code: d.code, online: d.online })),
    );
  }

  /** Tenants -> projects -> devices, one level per call; only the platform administrator sees other tenants. */
  async lazyByTenant(ctx: CallContext, args: Record<string, unknown>) {
    const parentId = text(args, 'parentId') ?? '0';
    const p = ctx.principal;
    if (parentId === '0') {
      let qb = this.platform.db.selectFrom('blade_tenant').select(['tenantId', 'tenantName']).where('isDeleted', '=', 0);
      if (!isPlatformAdmin(p)) qb = qb.where('tenantId', '=', p.tenantId);
      const tenants = await qb.orderBy('tenantId').execute();
      const withProjects = new Set(distinct(await this.platform.repo(project).all(ctx, {}), 'tenantId'));
      return tenants.map((t) => ({
        ...nodeOf('tenant', { id: t.tenantId }, '0', t.tenantName, { tenantId: t.tenantId }),
        hasChildren: withProjects.has(String(t.tenantId)),
      }));
    }
    if (/^\d{6}$/.test(parentId)) {
      const projects = await this.platform.repo(project).all(ctx, {}, [eq('tenantId', parentId)]);
      const devices = await this.repo.all(ctx, {}, [within('projectId', projects.map((r) => r.id))], 100_000);
      return projects.map((r) => ({ ...nodeOf('project', r, parentId, r.name, { tenantId: r.tenantId }), hasChildren: devices.some((d) => d.projectId === r.id) }));
    }
    if (!/^\d{1,20}$/.test(parentId)) throw paramType('parentId');
    const devices = await this.repo.all(ctx, {}, [eq('projectId', parentId)]);
    return devices.map((d) => nodeOf('device', d, parentId, d.name, { tenantId: d.tenantId, code: d.code, online: d.online }));
  }

  /** The device's points with their latest values. */
  async pointsOf(ctx: CallContext, deviceId: string) {
    const [row] = await this.repo.all(ctx, {}, [eq('id', deviceId)], 1);
    if (!row) throw badRequest('设备不存在');
    const last = parseObject(row.lastValues);
    const initial = parseObject(row.initialValues);
    const points = await this.platform.repo(devicePoint).all(ctx, {}, [eq('deviceId', deviceId)]);
    const named = await withReferenceNames(this.platform, devicePoint, points, ['factorsItemId']);
    return named.map((pt) => ({ ...pt, value: last[String(pt.pointKey)] ?? null, initialValue: initial[String(pt.pointKey)] ?? null, lastSeen: row.lastSeen ?? null }));
  }

  /**
   * Compares the devices that speak a protocol (through their model, or a model agreement) with its points:
   * per device the protocol keys it has no point for (`missing`) and its keys the protocol lacks (`extra`).
   */
  async checkProtocolPoints(ctx: CallContext, protocolId: string) {
    const [proto] = await this.platform.repo(protocol).all(ctx, {}, [eq('id', protocolId)], 1);
    if (!proto) throw badRequest('协议不存在');
    // The protocol's whole definition, as its tenant holds it.
    const keys = (await (await this.platform.repo(protocolPoint).select(ctx, WHOLE_TENANT)).select('pointKey').where('protocolId', '=', protocolId).execute()).map((r) => r.pointKey);
    const agreements = await (await this.platform.repo(modelAgreement).select(ctx, WHOLE_TENANT)).select('modelId').where('protocolId', '=', protocolId).execute();
    const models = await this.platform.repo(deviceModel).all(ctx, {}, [(eb) => eb.or([eb('protocolId', '=', protocolId), within('id', agreements.map((a) => a.modelId))(eb)])]);
    const devices = await this.repo.all(ctx, {}, [within('modelId', models.map((m) => m.id))], 100_000);
    const points = await this.platform.repo(devicePoint).all(ctx, {}, [within('deviceId', devices.map((d) => d.id))], 100_000);
    const report = devices.map((d) => {
      const own = new Set(points.filter((p) => p.deviceId === d.id).map((p) => p.pointKey));
      const missing = keys.filter((k) => !own.has(k));
      const extra = [...own].filter((k) => !keys.includes(k));
      return { deviceId: d.id, code: d.code, name: d.name, missing, extra, consistent: missing.length === 0 && extra.length === 0 };
    });
    return { protocolId, pointKeys: keys, devices: report, consistent: report.every((r) => r.consistent) };
  }

  /** The groups of a project as a tree (below `parentId` when given). */
  async groupTree(ctx: CallContext, args: Record<string, unknown>) {
    const projectId = idArg(args, 'projectId') ?? requiredText(args, 'projectId');
    const groups = await this.groups.all(ctx, {}, [eq('projectId', projectId)]);
    const roots = forest(groups.map((g) => nodeOf('group', g, String(g.parentId), g.name, { projectId, level: g.level, sort: g.sort })));
    const parentId = idArg(args, 'parentId');
    if (!parentId || parentId === '0') return roots;
    const find = (nodes: typeof roots): typeof roots | undefined => {
      for (const n of nodes) {
        if (n.id === parentId) return n.children ?? [];
        const inner = n.children && find(n.children);
        if (inner) return inner;
      }
      return undefined;
    };
    return find(roots) ?? [];
  }

  /** Saves a group (its level follows its parent), or removes it (`isDeleted: 1`) when it holds no groups or devices. */
  async updateGroup(ctx: CallContext, body: Record<string, unknown>): Promise<Row | boolean> {
    if (body.id && Number(body.isDeleted) === 1) {
      const id = String(body.id);
      const devices = await this.repo.all(ctx, {}, [eq('groupId', id)], 1);
      if (devices.length) throw badRequest('分组下还有设备,不能删除');
      if ((await this.groups.remove(ctx, [id])) === 0) throw badRequest('数据不存在或无权操作');
      return true;
    }
    const { isDeleted: _ignored, ...values } = body;
    const saved = await saveWithHooks(this.platform, deviceGroup, ctx, values, {
      beforeSave: async (ctx2, v, existing) => {
        const projectId = String(v.projectId ?? existing?.projectId);
        const parentId = String(v.parentId ?? existing?.parentId ?? '0');
        await assertNoCycle(this.platform, ctx2, deviceGroup, existing?.id as string | undefined, parentId, '上级分组不能是自身或其下级');
        let level = 1;
        if (parentId !== '0') {
          const [parent] = await this.groups.all(ctx2, {}, [eq('id', parentId)], 1);
          if (!parent || parent.projectId !== projectId) throw badRequest('上级分组不存在');
          level = Number(parent.level) + 1;
        }
        if (level + (existing ? (await this.descendants(ctx2, existing)).depth : 0) > 10) throw badRequest('分组最多10级');
        return { ...v, parentId, level };
      },
    });
    await this.relevel(ctx, saved);
    return saved;
  }

  /** A group's descendants with their distance below it, and the deepest distance. */
  private async descendants(ctx: CallContext, group: Row): Promise<{ rows: Array<{ id: string; distance: number; level: number }>; depth: number }> {
    const rows: Array<{ id: string; distance: number; level: number }> = [];
    let parents = [String(group.id)];
    for (let distance = 1; parents.length && distance <= 10; distance++) {
      const children = await this.groups.all(ctx, {}, [within('parentId', parents)]);
      for (const child of children) rows.push({ id: child.id, distance, level: Number(child.level) });
      parents = children.map((c) => c.id);
    }
    return { rows, depth: Math.max(0, ...rows.map((r) => r.distance)) };
  }

  /** After a group moved, its descendants' levels follow it (the depth was checked before the move). */
  private async relevel(ctx: CallContext, group: Row): Promise<void> {
    const { rows } = await this.descendants(ctx, group);
    for (const row of rows) {
      const level = Number(group.level) + row.distance;
      if (row.level !== level) await this.groups.update(ctx, row.id, { level });
    }
  }

  /** The group levels a project uses, with how many groups each. */
  async groupLevels(ctx: CallContext, projectId: string) {
    const groups = await this.groups.all(ctx, {}, [eq('projectId', projectId)]);
    const counts = new Map<number, number>();
    for (const g of groups) counts.set(Number(g.level), (counts.get(Number(g.level)) ?? 0) + 1);
    return [...counts.entries()].sort(([a], [b]) => a - b).map(([level, count]) => ({ level, count }));
  }
}

/** Devices, their groups, points and point attributes, and the device view. */
export function registerDevices(app: FastifyInstance, platform: Platform): void {
  const devices = new Devices(platform);
  const base = '/wit-xinde/device';
  registerCrud(app, platform, device, {
    beforeSave: (ctx, values, existing, referenced) => devices.prepare(ctx, values, existing, referenced),
    beforeRemove: async (ctx, ids) => {
      // Any binding of the tenant holds the device, whether the caller sees its monitor point or not.
      const bound = await (await platform.repo(pointRelationDevice).select(ctx, WHOLE_TENANT)).select('id').where('deviceId', 'in', ids).executeTakeFirst();
      if (bound) throw badRequest('设备已绑定监测点,请先解除绑定');
    },
  });

  app.get(`${base}/lazy-list`, needs.lookup, async (request) => ok(await devices.lazyList(contextOf(request), paramsOf(request))));
  app.get(`${base}/lazy-list-tenantid`, needs.lookup, async (request) => ok(await devices.lazyByTenant(contextOf(request), paramsOf(request))));
  app.get(`${base}/treeList`, needs.lookup, async (request) => ok(await devices.treeList(contextOf(request), paramsOf(request))));
  app.post(`${base}/saveBatch`, limited('import', needs('device_list_add')), async (request) => ok(await devices.saveBatch(contextOf(request), request.body)));
  app.post(`${base}/setting`, needs('device_list_edit'), async (request) => ok(await devices.setting(contextOf(request), argsOf(request))));
  app.get(`${base}/countModelCode`, needs('device_list'), async (request) => {
    const ctx = contextOf(request);
    const modelIds = await devices.modelIdsOf(ctx, paramsOf(request));
    return ok(await countOf(devices.repo, ctx, [within('modelId', modelIds)]));
  });
  app.post(`${base}/selectDeviceByIds`, needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const ids = idsOf(args);
    if (ids.some((id) => !/^\d{1,20}$/.test(id))) throw paramType('ids');
    return ok(await withReferenceNames(platform, device, await devices.repo.all(ctx, {}, [within('id', ids)])));
  });
  app.post(`${base}/getDevicePoint`, needs.lookup, async (request) => {
    const args = argsOf(request);
    return ok(await devices.pointsOf(contextOf(request), idArg(args, 'deviceId') ?? requiredText(args, 'deviceId')));
  });
  app.post(`${base}/checkProtocolProint`, needs('device_list'), async (request) => {
    const args = argsOf(request);
    return ok(await devices.checkProtocolPoints(contextOf(request), idArg(args, 'protocolId') ?? requiredText(args, 'protocolId')));
  });
  app.post(`${base}/getDeviceGroup`, needs.lookup, async (request) => ok(await devices.groupTree(contextOf(request), argsOf(request))));
  app.post(`${base}/updateDeviceGroup`, needs('device_list_edit'), async (request) => ok(await devices.updateGroup(contextOf(request), bodyOf(request))));
  app.post(`${base}/getDeviceGroupLevel`, needs.lookup, async (request) => {
    const args = argsOf(request);
    return ok(await devices.groupLevels(contextOf(request), idArg(args, 'projectId') ?? requiredText(args, 'projectId')));
  });

  registerCrud(app, platform, devicePoint, {
    // The device's code is a second column of the referenced row, beside its declared name.
    decorate: async (ctx, rows) => {
      const devices = await namedRows(platform, ctx, device, distinct(rows, 'deviceId'), ['code']);
      return rows.map((r) => ({ ...r, deviceCode: devices.get(String(r.deviceId))?.code ?? null }));
    },
  });
  /** How many points the devices of a model have (`modelId` or `modelCode`). */
  app.get('/wit-xinde/devicepoint/countModelCode', needs('device_point'), async (request) => {
    const ctx = contextOf(request);
    const modelIds = await devices.modelIdsOf(ctx, paramsOf(request));
    const ofModel = await (await platform.repo(device).select(ctx, WHOLE_TENANT)).select('id').where(within('modelId', modelIds));
    return ok(await countOf(platform.repo(devicePoint), ctx, [(eb) => eb('deviceId', 'in', ofModel)]));
  });
  registerPointSheet(app, platform);

}
