import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, id, int, required, text } from '../fields';
import { REFERENCE_IDS } from './examples';
import { project } from './project';

export const MAX_COMPARISON_ITEMS = 20;

const item = z.object({
  deviceId: z.union([z.string().regex(/^\d{1,20}$/, '对比项的设备编号不正确'), z.number().int()], { error: '对比项缺少设备' }).transform(String),
  pointKey: z.string({ error: '对比项缺少点位' }).regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, '对比项的点位标识不正确'),
  name: z.string().max(64, '对比项名称不能超过64个字符').nullish(),
});

export type ComparisonItem = z.output<typeof item>;

/** The compared channels: a JSON array (or its text) of {deviceId, pointKey, name?}, stored as text. */
const items = () =>
  z.union([z.string(), z.array(z.unknown())], { error: '请选择对比的设备点位' }).transform((value, ctx) => {
    let list: unknown = value;
    if (typeof value === 'string') {
      try {
        list = JSON.parse(value);
      } catch {
        list = undefined;
      }
    }
    const parsed = z.array(item).min(1, '请选择对比的设备点位').max(MAX_COMPARISON_ITEMS, `对比项不能超过${MAX_COMPARISON_ITEMS}个`).safeParse(list);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: Array.isArray(list) ? (parsed.error.issues[0]?.message ?? '对比项格式不正确') : '对比项应为 JSON 数组' });
      return z.NEVER;
    }
    return JSON.stringify(parsed.data);
  });

/**
 * A data comparison (数据对比): channels of one project's devices charted together over a period, filed under a
 * batch number (a survey round, e.g. `2026-第1期`) so rounds can be compared with each other.
 */
export const dataComparison = defineResource({
  service: 'wit-xinde',
  name: 'datacomparison',
  menu: 'data_comparison',
  table: 'wit_data_comparison',
  tenancy: 'tenant',
  fields: z.object({
    projectId: id('请选择项目'),
    name: required('请输入对比名称', 64),
    batchNumber: required('请输入批次号', 64),
    startTime: datetime().nullish(),
    endTime: datetime().nullish(),
    items: items(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['nopage'],
  projectField: 'projectId',
  orderBy: [{ field: 'batchNumber', desc: true }, { field: 'sort' }],
  unique: [{ fields: ['projectId', 'batchNumber', 'name'], message: '该批次已有同名的数据对比' }],
  references: { projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' } },
  example: {
    projectId: REFERENCE_IDS.project,
    name: '示例倾角对比',
    batchNumber: '2026-第1期',
    startTime: '2026-01-01 00:00:00',
    endTime: '2026-01-31 23:59:59',
    items: [{ deviceId: REFERENCE_IDS.device, pointKey: 'tilt_x', name: '测试台X向倾角' }],
  },
});
