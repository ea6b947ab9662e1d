import { z } from 'zod';
import { defineResource, type Tenancy } from '../define';
import { id, text } from '../fields';

/** Parent dictionaries have parentId 0 and dictKey -1; entries hang below them and share their code. */
export const TOP_PARENT_ID = '0';
export const PARENT_DICT_KEY = '-1';

/**
 * Dictionary fields (spec §3 "Dictionary entry", §5 "Dictionary forms"). `code` and `dictKey` are required only
 * for parents and entries respectively, which the dictionary module checks with the same messages.
 */
const dictionaryFields = z.object({
  parentId: id().nullish(),
  code: text().nullish(),
  dictKey: text().nullish(),
  dictValue: z.string({ error: '请输入字典名称' }).trim().min(1, '请输入字典名称').max(255, '长度不能超过255个字符'),
  sort: z.coerce.number<unknown>({ error: '请输入字典排序' }).int('请输入字典排序'),
  isSealed: z.coerce.number<unknown>({ error: '请选择封存' }).int('请选择封存').min(0, '请选择封存').max(1, '请选择封存'),
  remark: text().nullish(),
});

/** The declaration both dictionary families share. */
export const dictionaryResource = <T extends string, Ten extends Tenancy>(name: string, menu: string, table: T, tenancy: Ten) =>
  defineResource({
    service: 'blade-system',
    name,
    menu,
    table,
    tenancy,
    fields: dictionaryFields,
    orderBy: [{ field: 'sort' }],
    parentField: 'parentId',
    unique: [{ fields: ['code', 'dictKey'], message: '当前字典键值已存在!' }],
    example: { code: `example_${name.replace('-', '_')}`, dictValue: '示例字典', sort: 1, isSealed: 0, remark: '示例' },
  });

/** Either dictionary family (spec §2 "Dictionary management", §5 "Dictionary forms"): the same fields, each its own table and tenancy. */
export type Dictionary = ReturnType<typeof dictionaryResource<'blade_dict' | 'blade_dict_biz', Tenancy>>;

/** System dictionaries, shared by every tenant; the platform administrator maintains them. */
export const dict = dictionaryResource('dict', 'dict', 'blade_dict', 'global');
