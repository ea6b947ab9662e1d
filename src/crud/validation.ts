import type { I18n } from '@lingui/core';
import type { z } from 'zod';
import type { Resource } from '../../resources/define';
import { isEmpty } from './query';
import type { FieldView } from './types';

/** The value as the form sends it: a numeric select's choice as a number. */
export function wireValue(field: FieldView, value: unknown): unknown {
  const widget = field.widget;
  const numeric = widget?.type === 'select' && 'options' in widget && widget.numeric === true;
  return numeric && typeof value === 'string' && value !== '' ? Number(value) : value;
}

/**
 * The on-blur check of one form field: the view's message when a required value is empty (spec §5 wording,
 * translated), otherwise the resource's own schema — the rules the server applies to the same submit.
 */
export function fieldProblem(resource: Resource, field: FieldView, value: unknown, i18n: I18n): string | undefined {
  const empty = isEmpty(value);
  if (empty && field.required) return i18n._(field.required);
  const own = field.check?.(value, i18n);
  if (own) return own;
  const schema = (resource.fields.shape as Record<string, z.ZodType | undefined>)[field.name];
  if (!schema) return undefined;
  const result = schema.safeParse(empty ? undefined : wireValue(field, value));
  if (result.success) return undefined;
  // An empty optional-looking value that the schema rejects (a required field without a view message).
  return result.error.issues[0]?.message;
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
