import type { FastifyInstance } from 'fastify';
import { alarm, deviceThreshold } from '../../../resources/iot/alarm';
import { device, deviceGroup, devicePoint, gateway } from '../../../resources/iot/device';
import { monitorPoint } from '../../../resources/iot/monitoring';
import { type ProjectBelongings, project } from '../../../resources/iot/project';
import type { Resource } from '../../../resources/define';
import { needs } from '../../auth/rights';
import type { CallContext } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { contextOf, idsOf, paramsOf } from '../../http/context';
import { badRequest, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { countOf, within } from './common';

/** The counts behind the delete confirmation of the project list: through the scoped repositories, nothing raw. */
export async function belongingsOf(platform: Platform, ctx: CallContext, ids: string[]): Promise<ProjectBelongings> {
  const count = (resource: Resource, ...conditions: Condition[]) => countOf(platform.repo(resource), ctx, conditions);
  const projects = await count(project, within('wit_project.id', ids));
  if (projects !== new Set(ids).size) throw badRequest('数据不存在或无权操作');
  const inProjects = (table: string) => within(`${table}.projectId`, ids);
  const devices = await platform.repo(device).select(ctx);
  const deviceIds = devices.where(inProjects('wit_device')).select('wit_device.id');
  const [all, online, gateways, devicePoints, monitorPoints, thresholds, alarms, groups] = await Promise.all([
    count(device, inProjects('wit_device')),
    count(device, inProjects('wit_device'), (eb) => eb('wit_device.online', '=', 1)),
    count(gateway, inProjects('wit_gateway')),
    count(devicePoint, (eb) => eb('wit_device_point.deviceId', 'in', deviceIds)),
    count(monitorPoint, inProjects('wit_monitor_point')),
    count(deviceThreshold, inProjects('wit_device_threshold')),
    count(alarm, inProjects('wit_alarm')),
    count(deviceGroup, inProjects('wit_device_group')),
  ]);
  return { projects, devices: all, onlineDevices: online, gateways, devicePoints, monitorPoints, thresholds, alarms, groups };
}

/** GET project/belongings (ids): our addition, for the confirmation before project/remove; needs the delete button. */
export function registerProjectBelongings(app: FastifyInstance, platform: Platform): void {
  app.get('/wit-xinde/project/belongings', needs('project_list_delete'), async (request) =>
    ok(await belongingsOf(platform, contextOf(request), idsOf(paramsOf(request)))),
  );
}
