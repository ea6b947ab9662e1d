import { Tag } from '@blueprintjs/core';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { ShownFilter } from './query';
import type { FieldView } from './types';

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

/** A filter as words: the column's label (or its name), the comparison, the value (a fixed choice by its label). */
export function filterText(filter: ShownFilter, fields: readonly FieldView[], i18n: I18n): string {
  const field = fields.find((f) => f.name === filter.name);
  const label = field ? i18n._(field.label) : filter.name === 'id' ? i18n._(msg`编号`) : filter.name;
  const { sign: said, withValue } = comparison(filter);
  const sign = typeof said === 'string' ? said : i18n._(said);
  if (!withValue) return `${label} ${sign}`;
  const choice = field?.widget?.type === 'select' && 'options' in field.widget ? field.widget.options.find((o) => o.value === filter.value) : undefined;
  return `${label} ${sign} ${choice ? i18n._(choice.label) : filter.value}`;
}

/**
 * The list's filters its search bar does not show (from a link: `?lastSeen_null=1`, `?id=`), each a tag that removes
 * it: a list never filters on something the page does not say.
 */
export function FilterTags({ filters, fields, onRemove }: { filters: readonly ShownFilter[]; fields: readonly FieldView[]; onRemove(key: string): void }) {
  const { i18n, t } = useLingui();
  if (filters.length === 0) return null;
  return (
    <div className="vg-crud-filters" data-testid="list-filters">
      <span>{t`筛选条件`}</span>
      {filters.map((filter) => (
        <Tag key={filter.key} minimal intent="primary" data-filter={filter.key} onRemove={() => onRemove(filter.key)}>
          {filterText(filter, fields, i18n)}
        </Tag>
      ))}
    </div>
  );
}
