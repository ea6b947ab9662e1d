import { Tag } from '@blueprintjs/core';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { treeOf } from './api';
import type { ShownFilter } from './query';
import type { FieldView, TreeOption } from './types';

/** How a filter compares, in words or a sign, by its contract suffix. */
function comparison(filter: ShownFilter): { sign: string | MessageDescriptor; withValue: boolean } {
  switch (filter.suffix) {
    case '_null':
      return { sign: msg`为空`, withValue: false };
    case '_notnull':
      return { sign: msg`不为空`, withValue: false };
    case '_ge':
    case '_datege':
      return { sign: '≥', withValue: true };
    case '_le':
    case '_datele':
      return { sign: '≤', withValue: true };
    case '_gt':
    case '_dategt':
      return { sign: '>', withValue: true };
    case '_lt':
    case '_datelt':
      return { sign: '<', withValue: true };
    case '_notequal':
      return { sign: '≠', withValue: true };
    case '_notlike':
      return { sign: msg`不包含`, withValue: true };
    case '_like':
    case '_likeleft':
    case '_likeright':
      return { sign: msg`包含`, withValue: true };
    default:
      return { sign: '=', withValue: true };
  }
}

/** Base columns no view lists as a field. */
const BASE_LABELS: Readonly<Record<string, MessageDescriptor>> = { id: msg`编号`, tenantId: msg`租户` };

/**
 * A filter as words: the column's label (or its name), the comparison, the value — a fixed choice by its label, a
 * reference by the name its picker gives (`titles`).
 */
export function filterText(filter: ShownFilter, fields: readonly FieldView[], i18n: I18n, titles: ReadonlyMap<string, string> = new Map()): string {
  const field = fields.find((f) => f.name === filter.name);
  const base = BASE_LABELS[filter.name];
  const label = field ? i18n._(field.label) : base ? i18n._(base) : filter.name;
  const { sign: said, withValue } = comparison(filter);
  const sign = typeof said === 'string' ? said : i18n._(said);
  if (!withValue) return `${label} ${sign}`;
  const choice = field?.widget?.type === 'select' && 'options' in field.widget ? field.widget.options.find((o) => o.value === filter.value) : undefined;
  return `${label} ${sign} ${choice ? i18n._(choice.label) : (titles.get(`${filter.name}:${filter.value}`) ?? filter.value)}`;
}

const findTitle = (nodes: readonly TreeOption[], id: string): string | undefined => {
  for (const node of nodes) {
    const found = node.id === id ? node.title : node.children && findTitle(node.children, id);
    if (found) return found;
  }
  return undefined;
};

/** Names of the filtered references (a link's `projectId`), from the pickers of their fields. */
function useReferenceTitles(filters: readonly ShownFilter[], fields: readonly FieldView[]): ReadonlyMap<string, string> {
  const [titles, setTitles] = useState<ReadonlyMap<string, string>>(new Map());
  const wanted = filters.flatMap((filter) => {
    const widget = fields.find((f) => f.name === filter.name)?.widget;
    return widget?.type === 'tree' && typeof widget.source === 'string' && !filter.value.includes(',') ? [{ key: `${filter.name}:${filter.value}`, source: widget.source, id: filter.value }] : [];
  });
  const key = JSON.stringify(wanted);
  useEffect(() => {
    let current = true;
    const asked = JSON.parse(key) as typeof wanted;
    void Promise.all(asked.map(async (w) => [w.key, findTitle(await treeOf(w.source).catch(() => []), w.id)] as const)).then((found) => {
      if (current) setTitles(new Map(found.filter((entry): entry is readonly [string, string] => !!entry[1])));
    });
    return () => {
      current = false;
    };
  }, [key]);
  return titles;
}

/**
 * The list's filters its search bar does not show (from a link: `?lastSeen_null=1`, `?id=`), each a tag that removes
 * it: a list never filters on something the page does not say.
 */
export function FilterTags({ filters, fields, onRemove }: { filters: readonly ShownFilter[]; fields: readonly FieldView[]; onRemove(key: string): void }) {
  const { i18n, t } = useLingui();
  const titles = useReferenceTitles(filters, fields);
  if (filters.length === 0) return null;
  return (
    <div className="vg-crud-filters" data-testid="list-filters">
      <span>{t`筛选条件`}</span>
      {filters.map((filter) => (
        <Tag key={filter.key} minimal intent="primary" data-filter={filter.key} onRemove={() => onRemove(filter.key)}>
          {filterText(filter, fields, i18n, titles)}
        </Tag>
      ))}
    </div>
  );
}
