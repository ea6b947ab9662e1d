import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { z } from 'zod';
import { inUserLanguage } from '../app/i18n';
import type { Resource } from '../../resources/define';
import { isEmpty } from './query';
import type { FieldView } from './types';

/** The value as the form sends it: the field's own `wire`, a numeric select's choice as a number. */
export function wireValue(field: FieldView, value: unknown): unknown {
  if (field.wire) return field.wire(value);
  const widget = field.widget;
  const numeric = widget?.type === 'select' && 'options' in widget && widget.numeric === true;
  return numeric && typeof value === 'string' && value !== '' ? Number(value) : value;
}

const isDay = (text: string) => {
  const day = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text.slice(0, 10);
};

/** A typed date in the spec's format, and a real day (not 2024-02-30), in the language of the console. */
function dateProblem(field: FieldView, value: unknown, i18n: I18n): string | undefined {
  const type = field.widget?.type;
  const text = String(value);
  if (type === 'date' && !(/^\d{4}-\d{2}-\d{2}( 00:00:00)?$/.test(text) && isDay(text))) return i18n._(msg`日期格式应为 yyyy-MM-dd`);
  if (type === 'datetime' && !(/^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(text) && isDay(text))) return i18n._(msg`日期格式应为 yyyy-MM-dd HH:mm:ss`);
  return undefined;
}

/**
 * The on-blur check of one form field: the view's message when a required value is empty (spec §5 wording,
 * translated), otherwise the resource's own schema — the rules the server applies to the same submit.
 */
export function fieldProblem(resource: Resource, field: FieldView, value: unknown, i18n: I18n): string | undefined {
  const empty = isEmpty(value);
  if (empty && field.required) return i18n._(field.required);
  const own = field.check?.(value, i18n) ?? (empty ? undefined : dateProblem(field, value, i18n));
  if (own) return own;
  const schema = (resource.fields.shape as Record<string, z.ZodType | undefined>)[field.name];
  if (!schema) return undefined;
  const result = schema.safeParse(empty ? undefined : wireValue(field, value));
  if (result.success) return undefined;
  // An empty optional-looking value that the schema rejects (a required field without a view message).
  const message = result.error.issues[0]?.message;
  return message === undefined ? undefined : inUserLanguage(message);
}

/** Every field's problem, for the check before a submit. */
export function formProblems(resource: Resource, fields: readonly FieldView[], values: Record<string, unknown>, i18n: I18n): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const problem = fieldProblem(resource, field, values[field.name], i18n);
    if (problem) problems[field.name] = problem;
  }
  return problems;
}

/** Whether a field must be filled: the view says so, or the resource's schema refuses it empty (marked `*`). */
export function isRequired(resource: Resource, field: FieldView): boolean {
  if (field.required) return true;
  const schema = (resource.fields.shape as Record<string, z.ZodType | undefined>)[field.name];
  return !!schema && !schema.safeParse(undefined).success;
}

/** One `field: message` part of a refusal, after an optional lead such as 参数校验失败 / Invalid parameters. */
const FIELD_PART = /^(?:[^:]*: )?([A-Za-z][\w.]*): (.+)$/s;

/**
 * A server refusal as messages of the form's fields: zod's `参数校验失败: name: 请输入项目名称; code: …` (in either
 * language), or a bare message that is a field's required message or one of its `refusals` (a threshold's 请选择设备). Parts that name
 * no field of the form are left out; nothing mapped means the refusal is the form's as a whole.
 */
export function refusalProblems(message: string, fields: readonly FieldView[], i18n: I18n): Record<string, string> {
  const names = new Set(fields.map((f) => f.name));
  const problems: Record<string, string> = {};
  for (const part of message.split('; ')) {
    const match = FIELD_PART.exec(part);
    const name = match?.[1].split('.')[0];
    if (match && name && names.has(name)) problems[name] ??= match[2];
  }
  if (Object.keys(problems).length) return problems;
  const owns = (m: MessageDescriptor) => m.message === message || i18n._(m) === message;
  const owner = fields.find((f) => (f.required && owns(f.required)) || f.refusals?.some(owns));
  return owner ? { [owner.name]: message } : {};
}
