import type { I18n } from '@lingui/core';
import type { Reference, Resource } from '../../resources/define';
import { http } from '../api/client';
import type { DownloadOptions, Downloaded } from '../api/http';
import { dictionary, type Params, resourceBase } from './api';
import type { CrudView, FieldView } from './types';
import { widgetOf } from './widgets';

/** What a list's 导出 sends (server/http/export.ts): the table's columns with their titles, and coded values' labels. */

export interface ExportColumn {
  field: string;
  title: string;
}

/** `field:title,…`, a title's `\` and `,` escaped (server/http/export.ts `parseColumns`). */
export const columnsParam = (columns: readonly ExportColumn[]): string =>
  columns.map(({ field, title }) => `${field}:${title.replace(/[\\,]/g, (ch) => `\\${ch}`)}`).join(',');

/**
 * The table's columns the server can write: the resource's own fields, a reference as the referenced row's name
 * (what the cell shows), and the reference names a view lists. Columns the console makes up or the server's hooks
 * add (`derived`) are left out: the server knows only the declaration.
 */
export function exportColumns<R extends Resource>(view: CrudView<R>, i18n: I18n): ExportColumn[] {
  const references: Partial<Record<string, Reference>> = view.resource.references ?? {};
  const names = new Set(Object.values(references).map((r) => r?.as));
  const own = new Set(view.resource.columns);
  return view.fields.flatMap((field) => {
    if (field.hideInTable || ('derived' in field && field.derived)) return [];
    const shown = references[field.name]?.as ?? field.name;
    if (!own.has(field.name) && !names.has(field.name)) return [];
    if (view.resource.hidden?.includes(shown)) return [];
    return [{ field: shown, title: i18n._(field.label) }];
  });
}

/** How the table shows a field's coded values, when it labels them (dictionaries, fixed choices). */
async function labelsOf(field: FieldView, i18n: I18n): Promise<Record<string, string> | undefined> {
  const widget = widgetOf(field);
  if (widget.type === 'select' && 'options' in widget) return Object.fromEntries(widget.options.map((o) => [o.value, i18n._(o.label)]));
  const dict = widget.type === 'select' ? widget.dict : widget.type === 'switch' ? widget.dict : undefined;
  if (!dict) return undefined;
  const service = widget.type === 'select' && 'service' in widget ? widget.service : undefined;
  const entries = await dictionary(dict, service).catch(() => []);
  return Object.fromEntries(entries.map((e) => [e.dictKey, e.dictValue]));
}

/** `labels`: a JSON object of value → label per exported field the table labels. */
export async function exportLabels<R extends Resource>(view: CrudView<R>, columns: readonly ExportColumn[], i18n: I18n): Promise<string | undefined> {
  const exported = new Set(columns.map((c) => c.field));
  const out: Record<string, Record<string, string>> = {};
  for (const field of view.fields) {
    if (!exported.has(field.name)) continue;
    const labels = await labelsOf(field, i18n);
    if (labels && Object.keys(labels).length) out[field.name] = labels;
  }
  return Object.keys(out).length ? JSON.stringify(out) : undefined;
}

/** Downloads the list's export with the list's filters and sorting; `name` starts the file's name (the screen's title). */
export async function downloadList<R extends Resource>(view: CrudView<R>, params: Params, name: string, i18n: I18n, options: Omit<DownloadOptions, 'searchParams'>): Promise<Downloaded> {
  const columns = exportColumns(view, i18n);
  const labels = await exportLabels(view, columns, i18n);
  const searchParams = { ...params, columns: columnsParam(columns), labels, exportName: name };
  return http.download(`${resourceBase(view.resource)}/export`, { ...options, searchParams });
}
