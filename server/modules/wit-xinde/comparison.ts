import type { FastifyInstance } from 'fastify';
import { type ComparisonItem, dataComparison } from '../../../resources/iot/comparison';
import { device } from '../../../resources/iot/device';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { contextOf, paramsOf } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, missingParam, notFound, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { parseDateTime } from '../../time';
import { argsOf, eq, idArg, within } from './common';
import { chartOf, type LogKey, logKeys, rangeArgs, widthArg } from './history';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

const itemsOf = (row: Row): ComparisonItem[] => {
  try {
    const parsed: unknown = typeof row.items === 'string' ? JSON.parse(row.items) : row.items;
    return Array.isArray(parsed) ? (parsed as ComparisonItem[]) : [];
  } catch {
    return [];
  }
};

/** Data comparisons (数据对比): CRUD, batch numbers, and the chart of all their channels over one range. */
export function registerComparison(app: FastifyInstance, platform: Platform): void {
  const repo = platform.repo(dataComparison);
  const devices = platform.repo(device);

  /** Each item's device, visible to the caller and of the comparison's project, with its keys. */
  async function resolveItems(ctx: CallContext, projectId: string, items: readonly ComparisonItem[]) {
    const rows = await devices.all(ctx, {}, [within('id', [...new Set(items.map((i) => i.deviceId))])]);
    const keysOf = new Map<string, LogKey[]>();
    return Promise.all(
      items.map(async (item, index) => {
        const row = rows.find((d) => d.id === item.deviceId);
        if (!row) throw badRequest(`第${index + 1}个对比项: 设备不存在或无权操作`);
        if (String(row.projectId ?? '') !== projectId) throw badRequest(`第${index + 1}个对比项: 设备不属于该项目`);
        if (!keysOf.has(item.deviceId)) keysOf.set(item.deviceId, await logKeys(platform, ctx, row));
        const key = keysOf.get(item.deviceId)?.find((k) => k.pointKey === item.pointKey);
        if (!key) throw badRequest(`第${index + 1}个对比项: 设备 ${row.code} 没有点位 ${item.pointKey}`);
        return { item, row, key };
      }),
    );
  }

  registerCrud(app, platform, dataComparison, {
    beforeSave: async (ctx, values, existing) => {
      const merged = { ...existing, ...values };
      const [start, end] = [merged.startTime, merged.endTime].map((t) => (typeof t === 'string' ? parseDateTime(t)?.getTime() : undefined));
      if (start !== undefined && end !== undefined && start > end) throw badRequest('开始时间应早于结束时间');
      if (values.items !== undefined || values.projectId !== undefined) await resolveItems(ctx, String(merged.projectId), itemsOf(merged));
      return values;
    },
    decorate: async (ctx, rows) => {
      const ids = [...new Set(rows.flatMap((r) => itemsOf(r).map((i) => i.deviceId)))];
      const found = ids.length ? await devices.all(ctx, {}, [within('id', ids)]) : [];
      return rows.map((r) => ({
        ...r,
        items: itemsOf(r).map((i) => {
          const d = found.find((row) => row.id === i.deviceId);
          return { ...i, deviceCode: d?.code ?? null, deviceName: d?.name ?? null };
        }),
      }));
    },
  });

  /** The batch numbers in use (of a project, when given), newest first, each with how many comparisons it has. */
  app.post('/wit-xinde/datacomparison/selectBatchNumber', needs('data_comparison'), async (request) => {
    const ctx = contextOf(request);
    const projectId = idArg(argsOf(request), 'projectId');
    const rows = await repo.all(ctx, { descs: 'batch_number' }, projectId ? [eq('projectId', projectId)] : []);
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.batchNumber, (counts.get(row.batchNumber) ?? 0) + 1);
    return ok([...counts].map(([batchNumber, count]) => ({ batchNumber, count, label: batchNumber, value: batchNumber })));
  });

  /** id; startTime/endTime default to the comparison's own period; width as for device history. */
  app.get('/wit-xinde/datacomparison/getHistoryEchartsData', limited('history', needs('data_comparison')), async (request) => {
    const ctx = contextOf(request);
    const args = paramsOf(request);
    const id = idArg(args, 'id');
    if (!id) throw missingParam('id');
    const row = await repo.byId(ctx, id);
    if (!row) throw notFound('数据对比不存在或无权查看');
    const own = (name: 'startTime' | 'endTime') => (typeof row[name] === 'string' ? parseDateTime(String(row[name]))?.getTime() : undefined);
    const range = rangeArgs(args, { start: own('startTime'), end: own('endTime') });
    const resolved = await resolveItems(ctx, row.projectId, itemsOf(row));
    const chart = await chartOf(
      platform,
      resolved.map(({ item, row: deviceRow, key }) => ({ deviceRow, key, name: item.name || `${deviceRow.name} ${key.label}` })),
      range,
      widthArg(args),
    );
    return ok({ id: row.id, name: row.name, batchNumber: row.batchNumber, projectId: row.projectId, ...chart });
  });
}
