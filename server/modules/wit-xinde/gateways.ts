import type { FastifyInstance } from 'fastify';
import { device, gateway, } from '../../../resources/iot/device';
import type { Row } from '../../db/database';
import { withReferenceNames } from '../../db/references';
import type { CallContext } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { contextOf, paramsOf } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { attach, forest } from '../../http/trees';
import { assertCodeUnbound, assertNoCycle, eq, idArg, nodeOf, within } from './common';
import { needs } from '../../auth/rights';

/** Gateways and their online history. */
export function registerGateways(app: FastifyInstance, platform: Platform): void {
  const repo = platform.repo(gateway);
  const byProject = (args: Record<string, unknown>): Condition[] => {
    const projectId = idArg(args, 'projectId');
    return projectId ? [eq('projectId', projectId)] : [];
  };
  const nodes = (rows: Row[]) => rows.map((g) => nodeOf('gateway', g, String(g.parentId), String(g.name), { code: g.code, online: g.online, projectId: g.projectId }));

  registerCrud(app, platform, gateway, {
    beforeSave: async (ctx, values, existing) => {
      await assertNoCycle(platform, ctx, gateway, existing?.id as string | undefined, values.parentId, '上级网关不能是自身或其下级');
      await assertCodeUnbound(platform, ctx, values, existing, 'gateway');
      return values;
    },
    beforeRemove: async (ctx, ids) => {
      const attached = await platform.repo(device).all(ctx, {}, [within('gatewayId', ids)], 1);
      if (attached.length) throw badRequest('网关下还有设备,不能删除');
    },
  });

  /** The gateways of a project as a tree (a collector hangs below its gateway). */
  app.get('/wit-xinde/gateway/tree', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    return ok(forest(nodes(await repo.all(ctx, {}, byProject(paramsOf(request))))));
  });

  /** One level of the gateway tree: the children of `parentId` (default the top), each saying whether it has any. */
  app.get('/wit-xinde/gateway/lazy-list', needs('gateway'), async (request) => {
    const ctx = contextOf(request);
    const args = paramsOf(request);
    const parentId = idArg(args, 'parentId') ?? '0';
    const rows = await repo.all(ctx, {}, [eq('parentId', parentId), ...byProject(args)]);
    const children = await repo.all(ctx, {}, [within('parentId', rows.map((r) => r.id))]);
    const parents = new Set(children.map((c) => String(c.parentId)));
    const named = await withReferenceNames(platform, gateway, rows);
    return ok(named.map((r) => ({ ...r, hasChildren: parents.has(String(r.id)) })));
  });

  /** Gateways with their devices below them. */
  app.get('/wit-xinde/gateway/treeGatewayDevice', needs.lookup, async (request) => ok(await gatewayDeviceTree(platform, contextOf(request), paramsOf(request))));


  async function gatewayDeviceTree(platform: Platform, ctx: CallContext, args: Record<string, unknown>) {
    const gateways = nodes(await repo.all(ctx, {}, byProject(args)));
    const devices = await platform.repo(device).all(ctx, {}, [within('gatewayId', gateways.map((g) => g.id))], 100_000);
    attach(
      gateways,
      devices.map((d) => nodeOf('device', d, String(d.gatewayId), d.name, { code: d.code, online: d.online, projectId: d.projectId })),
    );
    return forest(gateways);
  }
}
