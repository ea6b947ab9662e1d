import type { MessageDescriptor } from '@lingui/core';
import type { DictEntry } from '../../crud/api';
import type { SelectOption } from '../../crud/types';
import type { DeployTarget } from './flowApi';

/** Definitions and models carry their category as `flow_<dictKey>` of the dictionary `flow` (spec §3 "Flow route"). */
export const CATEGORY_PREFIX = 'flow_';

export const categoryValue = (dictKey: string): string => `${CATEGORY_PREFIX}${dictKey}`;

/** The dictionary's label for a stored category, or the stored value itself when the dictionary has no such key. */
export function categoryLabel(entries: readonly DictEntry[], value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const stored = String(value);
  return entries.find((e) => categoryValue(e.dictKey) === stored)?.dictValue ?? stored;
}

/**
 * The dictionary's entries as select choices whose values are the stored form. The labels are the dictionary's own
 * text (the server answers it in the user's language), as descriptors whose message is that text.
 */
export function categoryOptions(entries: readonly DictEntry[]): SelectOption[] {
  return entries.map((e) => ({ value: categoryValue(e.dictKey), label: { id: e.dictValue, message: e.dictValue } satisfies MessageDescriptor }));
}

/** The tenant ids a form holds (a picker's list, or a comma-joined text) as one comma-joined list, each id once. */
export function joinTenantIds(value: unknown): string | undefined {
  const ids = (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : []).map((id) => id.trim()).filter(Boolean);
  return ids.length ? [...new Set(ids)].join(',') : undefined;
}

/**
 * What a deployment sends: the chosen category, and the tenants only for the platform administrator (the server
 * deploys everyone else's into their own tenant, and ignores no list it is given: so none is sent).
 */
export function deployTarget(category: string, tenants: unknown, platformAdmin: boolean): DeployTarget {
  const tenantIds = platformAdmin ? joinTenantIds(tenants) : undefined;
  return tenantIds ? { category, tenantIds } : { category };
}

/** File names an upload takes (docs/workflow.md: `.bpmn`, `.bpmn20.xml`, `.xml`). */
export const isBpmnFileName = (name: string): boolean => /\.(bpmn|bpmn20\.xml|xml)$/i.test(name);

export const BPMN_ACCEPT = '.bpmn,.bpmn20.xml,.xml';
