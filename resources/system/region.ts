import { z } from 'zod';
import { defineResource } from '../define';
import { int, required, text } from '../fields';

/** The parent code of provinces. */
export const REGION_ROOT = '00';

/**
 * Administrative regions (province → city → district → town → village), global. The server derives ancestors,
 * level and the province…village codes and names from the parent, so a submit names only code, parent and name.
 */
export const region = defineResource({
  service: 'blade-system',
  name: 'region',
  menu: 'region',
  table: 'blade_region',
  tenancy: 'global',
  fields: z.object({
    code: required('请输入区划编号', 12).regex(/^\d+$/, '区划编号只能是数字'),
    parentCode: text(12).nullish(),
    name: required('请输入区划名称', 64),
    ancestors: text(1000).nullish(),
    provinceCode: text(12).nullish(),
    provinceName: text(64).nullish(),
    cityCode: text(12).nullish(),
    cityName: text(64).nullish(),
    districtCode: text(12).nullish(),
    districtName: text(64).nullish(),
    townCode: text(12).nullish(),
    townName: text(64).nullish(),
    villageCode: text(12).nullish(),
    villageName: text(64).nullish(),
    regionLevel: int().nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  orderBy: [{ field: 'sort' }, { field: 'code' }],
  unique: [{ fields: ['code'], message: '区划编号已存在' }],
  example: { code: '99', parentCode: REGION_ROOT, name: '示例省', sort: 1 },
});
