import { device } from '../../../resources/iot/device';
import { project } from '../../../resources/iot/project';
import { mqttParam, PUSH_TYPE, tenantProject } from '../../../resources/iot/push';
import type { Row } from '../../db/database';
import { withReferenceNames } from '../../db/references';
import { type CallContext, transact } from '../../db/repository';
import { badRequest } from '../../http/envelope';
import { attach, type TreeNode } from '../../http/trees';
import type { Platform } from '../../platform';
import type { Push } from '../../push';
import type { Binding } from '../../push/bindings';
import type { PushReading } from '../../push/format';
import type { PushSummary } from '../../push/forwarder';
import { countHistory, type DeviceRef, historyOf, latestOf } from '../../push/history';
import { distinct, eq, idArg, namedRows, nodeOf, within } from './common';
import { timeArg } from './history';

/**
 * The calls of spec §7 "Tenant projects (MQTT and HTTP push)" beyond CRUD (docs/push.md "Calls"): the tree of
 * targets and their projects, binding a target's projects, and manual pushes of stored history or latest values.
 * Every row is read through the repositories (tenant and project scope); the forwarder does the sending.
 */

/** Longest range of one manual push. */
const MAX_RANGE_DAYS = 31;
const MAX_RANGE_MS = MAX_RANGE_DAYS * 86_400_000;
/** Most stored values one manual push may send. */
export const MAX_MANUAL_READINGS = 100_000;
const MAX_DEVICES = 500;

/** The target's push type and state, and how many devices a binding pushes (null: all); the names are declared. */
export async function decorateBindings(platform: Platform, ctx: CallContext, rows: Row[]): Promise<Row[]> {
  const byId = await namedRows(platform, ctx, mqttParam, distinct(rows, 'mqttParamId'), ['pushType', 'enabled']);
  return rows.map((r) => {
    const target = byId.get(String(r.mqttParamId));
    const ids = String(r.deviceIds ?? '').split(',').filter(Boolean);
    return { ...r, pushType: target?.pushType ?? null, paramEnabled: target?.enabled ?? null, deviceCount: ids.length || null };
  });
}

/** startTime/endTime (yyyy-MM-dd HH:mm:ss or epoch ms), both required, at most 31 days apart. */
function rangeOf(args: Record<string, unknown>): { start: number; end: number } {
  const start = timeArg(args, 'startTime');
  const end = timeArg(args, 'endTime');
  if (start === undefined || end === undefined) throw badRequest('请选择开始时间和结束时间');
  if (start >= end) throw badRequest('开始时间应早于结束时间');
  if (end - start > MAX_RANGE_MS) throw badRequest(`推送时间范围不能超过 ${MAX_RANGE_DAYS} 天`);
  return { start, end };
}

/** Comma-joined or array ids of an argument; none: undefined. */
function idList(args: Record<string, unknown>, name: string): string[] | undefined {
  const value = args[name];
  const list = (Array.isArray(value) ? value.join(',') : String(value ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
  if (list.some((id) => !/^\d{1,20}$/.test(id))) throw badRequest(`${name} 应为逗号分隔的编号`);
  return list.length ? [...new Set(list)] : undefined;
}

interface Group {
  binding: Binding;
  devices: DeviceRef[];
}

export interface PushReply extends PushSummary {
  mqttParamId: string;
  bindings: number;
  devices: number;
}

export class PushCalls {
  constructor(
    private readonly platform: Platform,
    private readonly push: () => Push,
  ) {}

  private get targets() {
    return this.platform.repo(mqttParam);
  }

  private get bindingRows() {
    return this.platform.repo(tenantProject);
  }

  private async target(ctx: CallContext, id: string): Promise<Row> {
    const row = await this.targets.byId(ctx, id);
    if (!row) throw badRequest('推送目标不存在或无权操作');
    return row;
  }

  /** The binding as the forwarder sees it; refused when it does not push (target or binding disabled). */
  private async live(row: Row): Promise<Binding> {
    const binding = await this.push().bindings.byId(String(row.projectId), String(row.id));
    if (!binding) throw badRequest('推送目标不存在或已删除');
    if (binding.inactive) throw badRequest(binding.inactive);
    return binding;
  }

  /** Targets with their bound projects below them (nodeType `param` and `project`; a project node's id is the binding's). */
  async tree(ctx: CallContext, tenantId: string): Promise<TreeNode[]> {
    const targets = await this.targets.all(ctx, {}, [eq('tenantId', tenantId)]);
    const rows = await withReferenceNames(this.platform, tenantProject, await this.bindingRows.all(ctx, {}, [eq('tenantId', tenantId)]), ['projectId']);
    return attach(
      targets.map((t) => nodeOf('param', t, '0', t.name, { tenantId: t.tenantId, pushType: t.pushType, enabled: t.enabled })),
      rows.map((b) =>
        nodeOf('project', b, String(b.mqttParamId), String(b.projectName ?? b.projectId), {
          tenantId: b.tenantId,
          projectId: b.projectId,
          mqttParamId: b.mqttParamId,
          enabled: b.enabled,
          lastState: b.lastState,
          lastPushTime: b.lastPushTime ?? null,
        }),
      ),
    );
  }

  /** The target's bound projects. */
  async selected(ctx: CallContext, targetId: string) {
    await this.target(ctx, targetId);
    const rows = await decorateBindings(this.platform, ctx, await withReferenceNames(this.platform, tenantProject, await this.bindingRows.all(ctx, {}, [eq('mqttParamId', targetId)])));
    const projects = await this.platform.repo(project).all(ctx, {}, [within('id', distinct(rows, 'projectId'))]);
    return {
      mqttParamId: targetId,
      projectIds: rows.map((r) => String(r.projectId)),
      projects: projects.map((p) => ({ id: p.id, name: p.name, code: p.code })),
      bindings: rows,
    };
  }

  /**
   * The target's projects become exactly `projectIds` (of those the caller sees): new bindings push every device,
   * kept ones stay as they are, the others are removed.
   */
  async setProjects(ctx: CallContext, targetId: string, projectIds: string[]) {
    const target = await this.target(ctx, targetId);
    const tenantId = String(target.tenantId);
    const wanted = new Set(projectIds);
    const projects = await this.platform.repo(project).all(ctx, {}, [within('id', [...wanted]), eq('tenantId', tenantId)]);
    if (projects.length !== wanted.size) throw badRequest('项目不存在或无权操作');
    const current = await this.bindingRows.all(ctx, {}, [eq('mqttParamId', targetId)]);
    const removed = current.filter((b) => !wanted.has(b.projectId)).map((b) => b.id);
    const have = new Set(current.map((b) => b.projectId));
    const added = [...wanted].filter((id) => !have.has(id)).map((projectId) => ({ tenantId, mqttParamId: targetId, projectId }));
    await transact(this.platform, async (trx) => {
      const bindings = this.bindingRows.within(trx);
      if (removed.length) await bindings.removeWhere(ctx, [within('id', removed)]);
      await bindings.insertMany(ctx, added);
    });
    return this.selected(ctx, targetId);
  }

  /** The devices of bindings (ids of tenantproject rows: the devices they push) or of projects (all their devices). */
  async devices(ctx: CallContext, ids: string[]): Promise<Row[]> {
    const out: Row[] = [];
    for (const id of [...new Set(ids)]) {
      if (!/^\d{1,20}$/.test(id)) throw badRequest(`编号不正确: ${id}`);
      const binding = await this.bindingRows.byId(ctx, id);
      const projectId = binding ? binding.projectId : (await this.platform.repo(project).byId(ctx, id))?.id;
      if (!projectId) throw badRequest(`推送绑定或项目不存在: ${id}`);
      const subset = String(binding?.deviceIds ?? '').split(',').filter(Boolean);
      const rows = await this.platform.repo(device).all(ctx, {}, [eq('projectId', String(projectId)), ...(subset.length ? [within('id', subset)] : [])]);
      const named = await withReferenceNames(this.platform, device, rows, ['projectId']);
      for (const d of named) {
        out.push({ id: d.id, code: d.code, name: d.name, projectId: d.projectId, projectName: d.projectName, online: d.online, lastSeen: d.lastSeen ?? null, bindingId: binding?.id ?? null, mqttParamId: binding?.mqttParamId ?? null });
      }
    }
    return out;
  }

  /** A binding's devices the caller sees, or those of `requested` (each must be among them). */
  private async devicesOf(ctx: CallContext, binding: Binding, requested?: string[]): Promise<DeviceRef[]> {
    const visible = await this.platform.repo(device).all(ctx, {}, [eq('projectId', binding.projectId), eq('tenantId', binding.tenantId)]);
    const allowed = new Map(visible.filter((d) => !binding.deviceIds || binding.deviceIds.has(d.id)).map((d) => [d.id, d]));
    if (!requested) return [...allowed.values()].map((d) => ({ id: d.id, code: d.code }));
    const missing = requested.find((id) => !allowed.has(id));
    if (missing) throw badRequest(`设备不存在或不在该项目的推送范围内: ${missing}`);
    return requested.map((id) => ({ id, code: String(allowed.get(id)?.code) }));
  }

  /**
   * pushMqttData / pushHttpData: a binding's stored history in a range, again (after a target's outage). The binding
   * is `id`, or `mqttParamId` + `projectId`; `deviceIds` narrows it.
   */
  async pushRange(ctx: CallContext, args: Record<string, unknown>, type: number): Promise<PushReply> {
    const id = idArg(args, 'id') ?? idArg(args, 'tenantProjectId');
    const targetId = idArg(args, 'mqttParamId');
    const projectId = idArg(args, 'projectId');
    let row: Row | undefined;
    if (id) row = await this.bindingRows.byId(ctx, id);
    else if (targetId && projectId) [row] = await this.bindingRows.all(ctx, {}, [eq('mqttParamId', targetId), eq('projectId', projectId)], 1);
    else throw badRequest('请选择推送绑定(id,或 mqttParamId 和 projectId)');
    if (!row) throw badRequest('推送绑定不存在或无权操作');
    const binding = await this.live(row);
    if (binding.target.pushType !== type) throw badRequest(type === PUSH_TYPE.mqtt ? '该推送目标不是 MQTT 类型,请使用 pushHttpData' : '该推送目标不是 HTTP 类型,请使用 pushMqttData');
    const range = rangeOf(args);
    const devices = await this.devicesOf(ctx, binding, idList(args, 'deviceIds'));
    return this.pushHistory(binding.target.id, [{ binding, devices }], range);
  }

  /**
   * pushDataByDev (`range`): chosen devices' history in a range; pushDataByDev2 (`latest`): their latest values now.
   * `mqttParamId` and `deviceIds`; each device's project must be bound to the target and the binding must push it.
   */
  async pushDevices(ctx: CallContext, args: Record<string, unknown>, mode: 'range' | 'latest'): Promise<PushReply> {
    const targetId = idArg(args, 'mqttParamId');
    if (!targetId) throw badRequest('请选择推送目标');
    await this.target(ctx, targetId);
    const ids = idList(args, 'deviceIds');
    if (!ids) throw badRequest('请选择设备');
    if (ids.length > MAX_DEVICES) throw badRequest(`一次最多推送 ${MAX_DEVICES} 台设备`);
    const range = mode === 'range' ? rangeOf(args) : undefined;
    const groups = await this.groupsOf(ctx, targetId, ids);
    if (range) return this.pushHistory(targetId, groups, range);
    const latest = this.push().latest;
    const db = this.platform.db;
    return this.run(targetId, groups, async function* (devices) {
      for (const d of devices) yield await latestOf(db, latest, d);
    });
  }

  /** The devices by the binding of the target that pushes each. */
  private async groupsOf(ctx: CallContext, targetId: string, ids: string[]): Promise<Group[]> {
    const devices = await this.platform.repo(device).all(ctx, {}, [within('id', ids)]);
    const byId = new Map(devices.map((d) => [d.id, d]));
    const unknown = ids.find((id) => !byId.has(id));
    if (unknown) throw badRequest(`设备不存在或无权操作: ${unknown}`);
    const rows = await this.bindingRows.all(ctx, {}, [eq('mqttParamId', targetId), within('projectId', distinct(devices, 'projectId'))]);
    const groups = new Map<string, Group>();
    for (const id of ids) {
      const d = byId.get(id) as Row;
      const row = rows.find((b) => b.projectId === d.projectId);
      if (!row) throw badRequest(`设备 ${String(d.code)} 所属项目未绑定该推送目标`);
      let group = groups.get(row.id);
      if (!group) {
        group = { binding: await this.live(row), devices: [] };
        groups.set(row.id, group);
      }
      if (group.binding.deviceIds && !group.binding.deviceIds.has(id)) throw badRequest(`设备 ${String(d.code)} 不在该项目的推送范围内`);
      group.devices.push({ id, code: String(d.code) });
    }
    return [...groups.values()];
  }

  private async pushHistory(targetId: string, groups: Group[], range: { start: number; end: number }): Promise<PushReply> {
    const total = await countHistory(this.platform.db, groups.flatMap((g) => g.devices.map((d) => d.id)), range.start, range.end);
    if (total > MAX_MANUAL_READINGS) throw badRequest(`该时间范围内共有 ${total} 条数据,超过单次推送上限 ${MAX_MANUAL_READINGS} 条,请缩小时间范围或减少设备`);
    const db = this.platform.db;
    return this.run(targetId, groups, async function* (devices) {
      for (const d of devices) yield* historyOf(db, d, range.start, range.end);
    });
  }

  /** Pushes each group's readings in turn as the target's one manual push; stops at the first failure. */
  private async run(targetId: string, groups: Group[], source: (devices: DeviceRef[]) => AsyncIterable<PushReading[]>): Promise<PushReply> {
    const { forwarder } = this.push();
    const reply: PushReply = { mqttParamId: targetId, bindings: groups.length, devices: 0, readings: 0, pushed: 0, messages: 0, failed: 0 };
    await forwarder.exclusive(targetId, () => badRequest('该推送目标正在手动推送,请稍后再试'), async () => {
      for (const group of groups) {
        reply.devices += group.devices.length;
        const summary = await forwarder.pushStored(group.binding, source(group.devices));
        reply.readings += summary.readings;
        reply.pushed += summary.pushed;
        reply.messages += summary.messages;
        reply.failed += summary.failed;
        if (summary.error) {
          reply.error = summary.error;
          break;
        }
      }
    });
    if (reply.error && reply.pushed === 0) throw badRequest(`推送失败: ${reply.error}`);
    return reply;
  }
}
