import type { ListVariant, Reference, Resource } from '../../resources/define';
import { type Row, resourceBase } from './api';
import type { CrudView, FieldView, Widget } from './types';

/** The list calls a picker can use: each answers the rows as id and name. */
const SELECT_VARIANTS: readonly ListVariant[] = ['select', 'selectList', 'selectlist'];

/** The GET path of a resource's picker: its first declared select variant; none when it declares no such call. */
export function pickerSource(resource: Resource): string | undefined {
  const variant = resource.variants?.find((v) => SELECT_VARIANTS.includes(v));
  return variant && `${resourceBase(resource)}/${variant}`;
}

type TreeWidget = Extract<Widget, { type: 'tree' }>;

/**
 * The picker of a resource's rows where no single reference field implies it: several ids in one field, or the
 * rows filtered by `query` (a monitor point's devices: those of its project).
 */
export function pickerOf(resource: Resource, options: Omit<TreeWidget, 'type' | 'source'> = {}): TreeWidget {
  const source = pickerSource(resource);
  if (!source) throw new Error(`${resource.key} declares no select call to pick its rows from`);
  return { type: 'tree', source, ...options };
}

const textOf = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** A reference field as the declaration makes it: the referenced resource's picker, the referenced row's name in the table. */
function referenceField<F extends FieldView>(field: F, reference: Reference): F {
  const source = field.widget ? undefined : pickerSource(reference.to());
  const widget: Widget | undefined = source ? { type: 'tree', source } : field.widget;
  const shown = reference.as;
  if (!shown) return { ...field, widget };
  // The id orders nothing a reader sees, so the name column is not sortable unless the view says so.
  return { ...field, widget, cell: field.cell ?? ((row: Row) => textOf(row[shown])), sortable: field.sortable ?? false };
}

/** A column naming a referenced row (`deviceName`), which only the server fills: never edited, not sortable. */
const nameField = <F extends FieldView>(field: F): F => ({ ...field, hideInForm: true, sortable: field.sortable ?? false });

/** A view with what its resource's declared references imply for each field (docs/console-screens.md). */
export function withReferences<R extends Resource>(view: CrudView<R>): CrudView<R> {
  const references: Partial<Record<string, Reference>> = view.resource.references ?? {};
  const names = new Set(Object.values(references).map((r) => r?.as));
  const own = new Set(view.resource.columns);
  return {
    ...view,
    fields: view.fields.map((field) => {
      const reference = references[field.name];
      if (reference) return referenceField(field, reference);
      return names.has(field.name) && !own.has(field.name) ? nameField(field) : field;
    }),
  };
}
