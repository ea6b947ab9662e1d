import type { FastifyInstance } from 'fastify';
import { device } from '../../../resources/iot/device';
import { monitorFactors, monitorPoint, monitorType, pointRelationDevice } from '../../../resources/iot/monitoring';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { registerCrud } from '../../http/crud';
import { contextOf } from '../../http/context';
import { badRequest, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { attach } from '../../http/trees';
import { argsOf, distinct, eq, hasPoint, idArg, nodeOf, WHOLE_TENANT, within } from './common';
import { needs } from '../../auth/rights';

/** Monitor types with their factors below them; with a project, only the factors its monitor points use. */
async function typesWithFactors(platform: Platform, ctx: CallContext, projectId: string | undefined) {
  const conditions: Condition[] = [];
  if (projectId) {
    const points = await platform.repo(monitorPoint).all(ctx, {}, [eq('projectId', projectId)]);
    conditions.push(within('id', distinct(points, 'factorsId')));
  }
  const factors = await platform.repo(monitorFactors).all(ctx, {}, conditions);
  const types = await platform.repo(monitorType).all(ctx, {}, projectId ? [within('id', distinct(factors, 'monitorTypeId'))] : []);
  return attach(
    types.map((t) => nodeOf('monitorType', t, '0', t.name, { code: t.code })),
    factors.map((f) => nodeOf('factors', f, String(f.monitorTypeId ?? '0'), f.name, { code: f.code, unit: f.unit, precision: f.precision })),
  );
}

/** A binding's monitor point and device must be of the same project; a channel must be one of the device's points. */
async function checkBinding(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined, found: ReadonlyMap<string, Row>): Promise<Row> {
  const merged = { ...existing, ...values };
  const point = found.get('monitorPointId') ?? (await platform.repo(monitorPoint).all(ctx, {}, [eq('id', merged.monitorPointId)], 1))[0];
  const dev = found.get('deviceId') ?? (await platform.repo(device).all(ctx, {}, [eq('id', merged.deviceId)], 1))[0];
  if (!point || !dev) throw badRequest('数据不存在或无权操作');
  if (dev.projectId !== point.projectId) throw badRequest('设备与监测点不属于同一项目');
  if (merged.pointKey && !(await hasPoint(platform, ctx, String(dev.id), String(merged.pointKey)))) throw badRequest('设备没有该点位');
  return values;
}

/** Monitor types, factors and their items, monitor points and their devices, report items. */
export function registerMonitoring(app: FastifyInstance, platform: Platform): void {
  app.post('/wit-xinde/monitorfactors/selectMonitorType', needs.lookup, async (request) =>
    ok(await typesWithFactors(platform, contextOf(request), idArg(argsOf(request), 'projectId'))),
  );
  registerCrud(app, platform, monitorPoint, {
    // Bindings are not a declared hold on the point: they are refused here with their own message.
    beforeRemove: async (ctx, ids) => {
      const bound = await (await platform.repo(pointRelationDevice).select(ctx, WHOLE_TENANT)).select('id').where('monitorPointId', 'in', ids).executeTakeFirst();
      if (bound) throw badRequest('监测点已绑定设备,请先解除绑定');
    },
    // Every device bound to the point, as the tenant holds them.
    decorate: async (ctx, rows) => {
      const bindings = await (await platform.repo(pointRelationDevice).select(ctx, WHOLE_TENANT))
        .select(['monitorPointId', 'deviceId'])
        .where(within('monitorPointId', rows.map((r) => String(r.id))))
        .execute();
      return rows.map((r) => ({ ...r, deviceIds: bindings.filter((b) => b.monitorPointId === r.id).map((b) => b.deviceId) }));
    },
  });
  registerCrud(app, platform, pointRelationDevice, {
    beforeSave: (ctx, values, existing, found) => checkBinding(platform, ctx, values, existing, found),
  });
}
