import type { FastifyInstance } from 'fastify';
import { device } from '../../../resources/iot/device';
import { monitorFactors, monitorFactorsItem, monitorItem, monitorPoint, monitorType, pointRelationDevice } from '../../../resources/iot/monitoring';
import { project } from '../../../resources/iot/project';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { registerCrud } from '../../http/crud';
import { contextOf } from '../../http/context';
import { badRequest, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { attach } from '../../http/trees';
import { argsOf, distinct, eq, idArg, nodeOf, referencing, unusedBeforeRemove, withNames, within } from './common';
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
    types.map((t) => nodeOf('monitorType', t, '0', String(t.name), { code: t.code })),
    factors.map((f) => nodeOf('factors', f, String(f.monitorTypeId ?? '0'), String(f.name), { code: f.code, unit: f.unit, precision: f.precision })),
  );
}

/** A binding's monitor point and device must be of the same project; a channel must be one of the device's points. */
async function checkBinding(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined, found: Map<string, Row>): Promise<Row> {
  const merged = { ...existing, ...values };
  const point = found.get('monitorPointId') ?? (await platform.repo(monitorPoint).all(ctx, {}, [eq('id', merged.monitorPointId)], 1))[0];
  const dev = found.get('deviceId') ?? (await platform.repo(device).all(ctx, {}, [eq('id', merged.deviceId)], 1))[0];
  if (!point || !dev) throw badRequest('数据不存在或无权操作');
  if (dev.projectId !== point.projectId) throw badRequest('设备与监测点不属于同一项目');
  if (merged.pointKey) {
    const channel = await platform.db
      .selectFrom('wit_device_point')
      .select('id')
      .where('deviceId', '=', String(dev.id))
      .where('pointKey', '=', String(merged.pointKey))
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    if (!channel) throw badRequest('设备没有该点位');
  }
  return values;
}

/** Monitor types, factors and their items, monitor points and their devices, report items. */
export function registerMonitoring(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, monitorType, {
    beforeRemove: unusedBeforeRemove(platform, monitorType, [['wit_monitor_factors', 'monitorTypeId'], ['wit_device_type', 'monitorTypeId']], '监测类型已被使用,不能删除'),
  });
  registerCrud(app, platform, monitorFactors, {
    beforeRemove: unusedBeforeRemove(platform, monitorFactors, [['wit_monitor_factors_item', 'factorsId'], ['wit_monitor_point', 'factorsId']], '监测因素已被使用,不能删除'),
    beforeSave: referencing(platform, [{ field: 'monitorTypeId', resource: monitorType, message: '监测类型不存在' }]),
    decorate: (_ctx, rows) => withNames(platform.db, rows, [['monitorTypeId', 'wit_monitor_type', 'monitorTypeName']]),
  });
  app.post('/wit-xinde/monitorfactors/selectMonitorType', needs.lookup, async (request) =>
    ok(await typesWithFactors(platform, contextOf(request), idArg(argsOf(request), 'projectId'))),
  );
  registerCrud(app, platform, monitorFactorsItem, {
    beforeRemove: unusedBeforeRemove(platform, monitorFactorsItem, [['wit_device_point', 'factorsItemId']], '因素项已被设备点位使用,不能删除'),
    beforeSave: referencing(platform, [{ field: 'factorsId', resource: monitorFactors, message: '监测因素不存在' }]),
    decorate: (_ctx, rows) => withNames(platform.db, rows, [['factorsId', 'wit_monitor_factors', 'factorsName']]),
  });
  registerCrud(app, platform, monitorPoint, {
    beforeSave: referencing(platform, [
      { field: 'projectId', resource: project, message: '项目不存在或无权操作' },
      { field: 'factorsId', resource: monitorFactors, message: '监测因素不存在' },
    ]),
    beforeRemove: async (_ctx, ids) => {
      const bound = await platform.db.selectFrom('wit_point_relation_device').select('id').where('monitorPointId', 'in', ids).where('isDeleted', '=', 0).executeTakeFirst();
      if (bound) throw badRequest('监测点已绑定设备,请先解除绑定');
    },
    decorate: async (_ctx, rows) => {
      const named = await withNames(platform.db, rows, [
        ['projectId', 'wit_project', 'projectName'],
        ['factorsId', 'wit_monitor_factors', 'factorsName'],
      ]);
      const bindings = await platform.db
        .selectFrom('wit_point_relation_device')
        .select(['monitorPointId', 'deviceId'])
        .where(within('monitorPointId', rows.map((r) => String(r.id))))
        .where('isDeleted', '=', 0)
        .execute();
      return named.map((r) => ({ ...r, deviceIds: bindings.filter((b) => b.monitorPointId === r.id).map((b) => b.deviceId) }));
    },
  });
  registerCrud(app, platform, pointRelationDevice, {
    beforeSave: referencing(
      platform,
      [
        { field: 'monitorPointId', resource: monitorPoint, message: '监测点不存在' },
        { field: 'deviceId', resource: device, message: '设备不存在' },
      ],
      (ctx, values, existing, found) => checkBinding(platform, ctx, values, existing, found),
    ),
    decorate: (_ctx, rows) =>
      withNames(platform.db, rows, [
        ['monitorPointId', 'wit_monitor_point', 'monitorPointName'],
        ['deviceId', 'wit_device', 'deviceName'],
      ]),
  });
  registerCrud(app, platform, monitorItem, {
    beforeSave: referencing(platform, [
      { field: 'monitorTypeId', resource: monitorType, message: '监测类型不存在' },
      { field: 'factorsId', resource: monitorFactors, message: '监测因素不存在' },
      { field: 'factorsItemId', resource: monitorFactorsItem, message: '因素项不存在' },
    ]),
  });
}
