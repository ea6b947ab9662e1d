import { Dialog, DialogBody } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import type { Resource } from '../../resources/define';
import type { Row } from './api';
import { CrudPage } from './CrudPage';
import type { CrudView, FieldName, RowAction } from './types';

/** How a parent row's children are reached: the row button and the child table shown in a dialog for that row. */
export interface ChildTable<C extends Resource = Resource> {
  /** The row button's key (class vg-action-<key>), label, icon and optional permission suffix. */
  action: Omit<RowAction, 'run'>;
  /** The dialog's title for a parent row. */
  title(parent: Row): string;
  /** The child table's view for a parent row (fixed list params and submitDefaults naming the parent). */
  view(parent: Row): CrudView<C>;
  width?: number;
}

/**
 * A list page whose rows open a child table in a dialog (a device type's attributes, a protocol's points, a monitor
 * point's bound devices): the parent view gets one row button, the child view is an ordinary CrudView.
 */
export function ChildTablePage<R extends Resource, C extends Resource>({ view, child }: { view: CrudView<R>; child: ChildTable<C> }) {
  const [parent, setParent] = useState<Row>();
  const parents = useMemo<CrudView<R>>(
    () => ({ ...view, rowActions: [...(view.rowActions ?? []), { ...child.action, run: (row: Row) => setParent(row) }] }),
    [view, child],
  );
  const children = useMemo(() => (parent ? child.view(parent) : undefined), [parent, child]);
  return (
    <>
      <CrudPage view={parents} />
      {parent && children && (
        <Dialog isOpen title={child.title(parent)} onClose={() => setParent(undefined)} style={{ width: child.width ?? 1000, maxWidth: '95vw' }}
          className={`vg-child-${child.action.key}`}>
          <DialogBody>
            <CrudPage view={children} />
          </DialogBody>
        </Dialog>
      )}
    </>
  );
}

/** A child view's list params and submit defaults for `field` = the parent's id, and the field kept out of sight. */
export function childOf<C extends Resource>(view: CrudView<C>, field: FieldName<C>, parent: Row): CrudView<C> {
  return {
    ...view,
    list: { ...view.list, params: { ...view.list?.params, [field]: parent.id } },
    submitDefaults: { ...view.submitDefaults, [field]: parent.id },
    fields: view.fields.map((f) => (f.name === field ? { ...f, hideInTable: true, hideInForm: true } : f)),
  };
}
