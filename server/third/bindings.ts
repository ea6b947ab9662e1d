import { device } from '../../resources/iot/device';
import { project } from '../../resources/iot/project';
import { deviceCustomer, pointCustomer, thirdMonitorParam, thirdMonitorProject } from '../../resources/iot/third';
import type { Row } from '../db/database';
import type { CallContext } from '../db/repository';
import { badRequest, paramType } from '../http/envelope';
import { attach } from '../http/trees';
import { eq, nodeOf, within } from '../modules/wit-xinde/common';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import type { ThirdConnections } from './connections';
import type { RemoteProject, ThirdPlatform } from './types';
import { applyWrites, changesOf, clip, compact, ID, type Write } from './writes';

/**
 * Connections and project bindings (docs/third-party.md "Calls"): which connection and project a call works on, the
 * remote projects, binding a local project (or creating one) to a remote one, unbinding, and the trees. Every call
 * checks everything first (the remote is read, rows validated with the resource's own schema), then writes in one
 * transaction, through the scoped repository: nothing is half-written.
 */

/** Checks of uniqueness see every live row of the tenant, also in projects the caller cannot see. */
const WHOLE_TENANT = { wholeTenant: true } as const;

/** A local project, its binding and connection: what the device and point calls work within. */
export interface Bound {
  param: Row;
  project: Row;
  binding: Row;
}

export class ThirdBindings {
  constructor(
    private readonly platform: Platform,
    private readonly connections: ThirdConnections,
  ) {}

  /** A connection the caller sees, with its secrets (the scoped select does not strip hidden fields). */
  async param(ctx: CallContext, id: string | undefined): Promise<Row> {
    if (!id) throw badRequest('请选择第三方参数');
    if (!ID.test(id)) throw paramType('thirdParamId');
    const row = await (await this.platform.repo(thirdMonitorParam).select(ctx)).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw badRequest('第三方参数不存在或无权操作');
    return row;
  }

  remote(param: Row): ThirdPlatform {
    return this.connections.of(param);
  }

  /** A project the caller sees, of the connection's tenant. */
  async project(ctx: CallContext, id: string | undefined, tenantId: string): Promise<Row> {
    if (!id) throw badRequest('请选择项目');
    if (!ID.test(id)) throw paramType('projectId');
    const [row] = await this.platform.repo(project).all(ctx, {}, [eq('id', id), eq('tenantId', tenantId)], 1);
    if (!row) throw badRequest('项目不存在或无权操作');
    return row;
  }

  /** The binding of a local project the caller sees, if any. */
  async bindingOf(ctx: CallContext, projectId: string): Promise<Row | undefined> {
    const [row] = await this.platform.repo(thirdMonitorProject).all(ctx, {}, [eq('projectId', projectId)], 1);
    return row;
  }

  /** A bound project with its binding and connection; `thirdProjectId`, when given, must be the bound one. */
  async bound(ctx: CallContext, projectId: string | undefined, thirdProjectId?: string, thirdParamId?: string): Promise<Bound> {
    if (!projectId) throw badRequest('请选择项目');
    if (!ID.test(projectId)) throw paramType('projectId');
    const binding = await this.bindingOf(ctx, projectId);
    if (!binding) throw badRequest('项目未绑定第三方项目,请先绑定');
    if (thirdProjectId && thirdProjectId !== binding.thirdProjectId) throw badRequest('项目未绑定该第三方项目');
    if (thirdParamId && thirdParamId !== binding.thirdParamId) throw badRequest('项目未绑定该第三方参数');
    const param = await this.param(ctx, String(binding.thirdParamId));
    return { param, project: await this.project(ctx, projectId, String(param.tenantId)), binding };
  }

  private async remoteProject(remote: ThirdPlatform, id: string): Promise<RemoteProject> {
    const found = (await remote.projects()).find((p) => p.id === id);
    if (!found) throw badRequest(`第三方项目不存在: ${id}`);
    return found;
  }


  /** The connections of a tenant with their bound projects below them. */
  async paramTree(ctx: CallContext, tenantId: string) {
    const params = await this.platform.repo(thirdMonitorParam).all(ctx, {}, [eq('tenantId', tenantId)]);
    const bindings = await this.platform.repo(thirdMonitorProject).all(ctx, {}, [eq('tenantId', tenantId)]);
    const names = await this.projectNames(ctx, bindings.map((b) => b.projectId));
    return attach(
      params.map((p) => nodeOf('param', p, '0', p.name, { baseUrl: p.baseUrl, platformType: p.platformType, enabled: p.enabled, lastPullState: p.lastPullState })),
      bindings.map((b) =>
        nodeOf('project', { ...b, name: names.get(b.projectId) ?? b.projectId }, b.thirdParamId, undefined, {
          projectId: b.projectId,
          thirdProjectId: b.thirdProjectId,
          thirdProjectName: b.thirdProjectName,
          lastPullTime: b.lastPullTime,
        }),
      ),
    );
  }

  /** Names of the projects the caller sees among `ids`. */
  private async projectNames(ctx: CallContext, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await (await this.platform.repo(project).select(ctx)).select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** The remote platform's projects, live, each marked with the local project bound to it. */
  async remoteProjects(ctx: CallContext, paramId: string | undefined): Promise<Row[]> {
    const param = await this.param(ctx, paramId);
    const projects = await this.remote(param).projects();
    const bindings = await this.platform.repo(thirdMonitorProject).all(ctx, {}, [eq('thirdParamId', String(param.id))]);
    const names = await this.projectNames(ctx, bindings.map((b) => b.projectId));
    return projects.map((p) => {
      const b = bindings.find((x) => x.thirdProjectId === p.id);
      return { ...p, bound: b ? 1 : 0, bindingId: b?.id ?? null, projectId: b?.projectId ?? null, projectName: b ? (names.get(b.projectId) ?? null) : null };
    });
  }

  /** Checks that a local project may be bound to a remote one; answers the binding it already has, if the same. */
  private async checkProjectBinding(ctx: CallContext, param: Row, projectId: string | undefined, thirdProjectId: string): Promise<Row | undefined> {
    const mine = projectId ? await this.bindingOf(ctx, projectId) : undefined;
    if (mine && (mine.thirdParamId !== param.id || mine.thirdProjectId !== thirdProjectId)) {
      throw badRequest(`该项目已绑定第三方项目「${String(mine.thirdProjectName ?? mine.thirdProjectId)}」,请先解除绑定`);
    }
    const liveProjects = (await this.platform.repo(project).select(ctx, WHOLE_TENANT)).select('wit_project.id');
    const theirs = await (await this.platform.repo(thirdMonitorProject).select(ctx, WHOLE_TENANT))
      .select(['projectId'])
      .where('thirdParamId', '=', String(param.id))
      .where('thirdProjectId', '=', thirdProjectId)
      .where('projectId', '<>', projectId ?? '')
      .where('projectId', 'in', liveProjects)
      .executeTakeFirst();
    if (theirs) throw badRequest(`第三方项目已绑定本地项目「${(await this.projectNames(ctx, [theirs.projectId])).get(theirs.projectId) ?? ''}」`);
    return mine;
  }

  /** Writes (or refreshes) the binding of a project and keeps the project's `ptProjectId` in step. */
  private bindingWrites(ctx: CallContext, param: Row, projectId: string, remote: RemoteProject, existing: Row | undefined): Write[] {
    const fields = { thirdProjectName: clip(remote.name, 128), thirdProjectCode: clip(remote.code, 64) };
    const bindings = this.platform.repo(thirdMonitorProject);
    const row = { tenantId: String(param.tenantId), thirdParamId: String(param.id), projectId, thirdProjectId: remote.id, ...fields };
    return [
      existing
        ? (trx) => bindings.within(trx).updateWhere(ctx, fields, [eq('id', String(existing.id))])
        : (trx, now) => bindings.within(trx).insertMany(ctx, [row], now),
      (trx) => this.platform.repo(project).within(trx).updateWhere(ctx, { ptProjectId: remote.id }, [eq('id', projectId)]),
    ];
  }

  /** bingProject: binds a local project to a remote project of a connection. */
  async bindProject(ctx: CallContext, paramId: string | undefined, projectId: string | undefined, thirdProjectId: string | undefined): Promise<Row> {
    const param = await this.param(ctx, paramId);
    const local = await this.project(ctx, projectId, String(param.tenantId));
    if (!thirdProjectId) throw badRequest('请选择第三方项目');
    const existing = await this.checkProjectBinding(ctx, param, String(local.id), thirdProjectId);
    const remote = await this.remoteProject(this.remote(param), thirdProjectId);
    await applyWrites(this.platform, this.bindingWrites(ctx, param, String(local.id), remote, existing));
    return (await this.bindingOf(ctx, String(local.id))) as Row;
  }

  /** The connection syncProject uses: the one named, else the project's binding's, else the tenant's only one. */
  private async paramForProject(ctx: CallContext, paramId: string | undefined, projectId: string | undefined): Promise<Row> {
    if (paramId) return this.param(ctx, paramId);
    const binding = projectId && ID.test(projectId) ? await this.bindingOf(ctx, projectId) : undefined;
    if (binding) return this.param(ctx, String(binding.thirdParamId));
    const params = await this.platform.repo(thirdMonitorParam).all(ctx, {}, [eq('tenantId', ctx.principal.tenantId)], 2);
    if (params.length !== 1) throw badRequest('请选择第三方参数');
    return this.param(ctx, String(params[0].id));
  }

  /** The local project's fields as the remote project has them. */
  private projectValues(remote: RemoteProject, name: string | undefined): Row {
    return {
      name: clip(name ?? remote.name, 128),
      structureType: remote.structureType,
      regionCode: clip(remote.regionCode, 32),
      address: clip(remote.address, 255),
      longitude: remote.longitude,
      latitude: remote.latitude,
      projectState: remote.projectState,
      startDate: remote.startDate,
      endDate: remote.endDate,
    };
  }

  /**
   * syncProject: binds a local project to a remote one and refreshes its fields from it; without `projectId` a local
   * project is created (code = the connection's prefix + the remote code).
   */
  async syncProject(ctx: CallContext, args: { thirdParamId?: string; projectId?: string; ptProjectId?: string; projectName?: string }): Promise<{ project: Row; binding: Row; created: boolean }> {
    const param = await this.paramForProject(ctx, args.thirdParamId, args.projectId);
    if (!args.ptProjectId) throw badRequest('请选择第三方项目');
    const tenantId = String(param.tenantId);
    const local = args.projectId ? await this.project(ctx, args.projectId, tenantId) : undefined;
    const existing = await this.checkProjectBinding(ctx, param, local ? String(local.id) : undefined, args.ptProjectId);
    const remote = await this.remoteProject(this.remote(param), args.ptProjectId);
    const values = this.projectValues(remote, args.projectName);
    const repo = this.platform.repo(project);
    const writes: Write[] = [];
    let projectId: string;
    if (local) {
      projectId = String(local.id);
      const changes = changesOf(local, repo.parse(compact(values), true));
      if (Object.keys(changes).length) writes.push((trx) => repo.within(trx).updateWhere(ctx, changes, [eq('id', projectId)]));
    } else {
      const code = `${String(param.codePrefix ?? '')}${remote.code ?? remote.id}`;
      const parsed = repo.parse(compact({ ...values, code, tenantId }), false);
      const clash = await (await repo.select(ctx, WHOLE_TENANT)).select('id').where('tenantId', '=', tenantId).where('code', '=', code).executeTakeFirst();
      if (clash) throw badRequest(`项目编号 ${code} 已存在,请在第三方参数中设置编号前缀`);
      // Bound from the start: a caller limited to projects does not see the new one to update it.
      const row = repo.build(ctx, { ...parsed, tenantId, ptProjectId: remote.id });
      projectId = String(row.id);
      writes.push((trx, now) => repo.within(trx).insertMany(ctx, [row], now));
    }
    writes.push(...this.bindingWrites(ctx, param, projectId, remote, existing));
    await applyWrites(this.platform, writes);
    const [saved] = await repo.all(ctx, {}, [eq('id', projectId)], 1);
    return { project: saved, binding: (await this.bindingOf(ctx, projectId)) as Row, created: !local };
  }

  /** Removes project bindings with the device and monitor-point bindings under them; the projects lose `ptProjectId`. */
  async unbindProjects(ctx: CallContext, ids: string[]): Promise<number> {
    const rows = await this.platform.repo(thirdMonitorProject).all(ctx, {}, [within('id', ids)]);
    if (rows.length === 0) throw badRequest('数据不存在或无权操作');
    await applyWrites(
      this.platform,
      rows.flatMap((b): Write[] => [
        (trx) => this.platform.repo(thirdMonitorProject).within(trx).removeWhere(ctx, [eq('id', b.id)]),
        // Every device and point binding under it goes, also those the caller's data scope does not show.
        ...[deviceCustomer, pointCustomer].map(
          (resource): Write =>
            (trx) => this.platform.repo(resource).within(trx).updateWhere(ctx, { isDeleted: 1 }, [eq('thirdParamId', b.thirdParamId), eq('projectId', b.projectId)], WHOLE_TENANT),
        ),
        (trx) => this.platform.repo(project).within(trx).updateWhere(ctx, { ptProjectId: null }, [eq('id', b.projectId), eq('ptProjectId', b.thirdProjectId)]),
      ]),
    );
    return rows.length;
  }

  /** Removes device or monitor-point bindings the caller sees. */
  async unbind(ctx: CallContext, kind: 'device' | 'point', ids: string[]): Promise<number> {
    const resource = kind === 'device' ? deviceCustomer : pointCustomer;
    const rows = await this.platform.repo(resource).all(ctx, {}, [within('id', ids)]);
    if (rows.length === 0) throw badRequest('数据不存在或无权操作');
    await this.platform.repo(resource).removeWhere(ctx, [within('id', rows.map((r) => r.id))]);
    return rows.length;
  }



  /** The local devices of a project (below the project node), each with its remote binding. */
  async deviceTree(ctx: CallContext, projectId: string | undefined) {
    if (!projectId) throw badRequest('请选择项目');
    if (!ID.test(projectId)) throw paramType('projectId');
    const [proj] = await this.platform.repo(project).all(ctx, {}, [eq('id', projectId)], 1);
    if (!proj) throw badRequest('项目不存在或无权操作');
    const devices = await this.platform.repo(device).all(ctx, {}, [eq('projectId', projectId)]);
    const bindings = await this.platform.repo(deviceCustomer).all(ctx, {}, [eq('projectId', projectId)]);
    const binding = await this.bindingOf(ctx, projectId);
    const root = nodeOf('project', proj, '0', proj.name, { code: proj.code, thirdParamId: binding?.thirdParamId ?? null, thirdProjectId: binding?.thirdProjectId ?? null, thirdProjectName: binding?.thirdProjectName ?? null });
    const children = devices.map((d) => {
      const b = bindings.find((x) => x.deviceId === d.id);
      return nodeOf('device', d, proj.id, d.name, {
        code: d.code,
        bound: b ? 1 : 0,
        bindingId: b?.id ?? null,
        thirdParamId: b?.thirdParamId ?? null,
        thirdDeviceId: b?.thirdDeviceId ?? null,
        thirdDeviceCode: b?.thirdDeviceCode ?? null,
        thirdDeviceName: b?.thirdDeviceName ?? null,
        pulledTime: b?.pulledTs ? formatDateTime(new Date(b.pulledTs)) : null,
      });
    });
    return attach([root], children);
  }
}
