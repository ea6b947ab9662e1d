import { z } from 'zod';
import { fieldKinds } from './define';

/** Field builders shared by every resource, so the same kind of value validates the same way everywhere. */

const DATETIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

/** A snowflake id; clients send it as a string or a number. `missing` is the message when it is absent. */
export const id = (missing?: string) => {
  const schema = z
    .union([z.string().regex(/^-?\d{1,20}$/, '必须是数字编号'), z.number().int()], missing ? { error: missing } : undefined)
    .transform((value) => String(value));
  fieldKinds.add(schema, { kind: 'ref' });
  return schema;
};

/** Comma-joined ids, as BladeX stores multi-selects (role_id, menu_id lists). */
export const idList = () =>
  z
    .union([z.string().regex(/^(-?\d{1,20})?(,-?\d{1,20})*$/, '必须是逗号分隔的编号'), z.array(z.union([z.string(), z.number()]))])
    .transform((value) => (Array.isArray(value) ? value.map(String).join(',') : value));

export const text = (max = 255) => z.string().max(max, `长度不能超过${max}个字符`);

/** A required, non-blank text field with the message shown when it is missing. */
export const required = (message: string, max = 255) =>
  z.string({ error: message }).trim().min(1, message).max(max, `长度不能超过${max}个字符`);

/** Whole numbers; accepts numeric strings because list forms often send them. */
export const int = () => z.coerce.number<unknown>({ error: '必须是整数' }).int('必须是整数');

export const decimal = () => z.coerce.number<unknown>({ error: '必须是数字' }).refine(Number.isFinite, '必须是数字');

/** 0/1 flags (is_sealed, read_flag). */
export const flag = () => z.coerce.number<unknown>().int().min(0).max(1);

export const datetime = () => {
  const schema = z.string().regex(DATETIME, '日期格式应为 yyyy-MM-dd HH:mm:ss');
  fieldKinds.add(schema, { kind: 'datetime' });
  return schema;
};

export const url = () => z.string().regex(/^https?:\/\//, '地址必须以 http 或 https 开头').max(1000);
