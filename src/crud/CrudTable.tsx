import '@blueprintjs/table/lib/css/table.css';
import { Button, Checkbox, Icon, NonIdealState } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, RenderMode, Table2 } from '@blueprintjs/table';
import { useLingui } from '@lingui/react/macro';
import { type CSSProperties, type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';
import type { Row } from './api';
import type { Sort, TreeLine } from './query';
import { actionsWidthOf, isCompact, type RowButton, RowButtons } from './RowButtons';
import { toggled } from './selection';
import type { FieldView } from './types';
import { FieldCell } from './widgets';

export interface CrudTableProps {
  lines: readonly TreeLine[];
  /** A reload is under way: an empty list is not yet known to be empty. */
  loading: boolean;
  fields: readonly FieldView[];
  /** Number of the first line (the index column counts across pages). */
  firstIndex: number;
  selected: ReadonlySet<string>;
  onSelect(ids: ReadonlySet<string>): void;
  sort?: Sort;
  onSort(field: string): void;
  /** Tree tables: a caret before the first field. */
  tree: boolean;
  onExpand(line: TreeLine): void;
  actions(row: Row): RowButton[];
  /** The most buttons a row may have (sizes the action column). */
  actionCount: number;
}

/**
 * The width of the main quadrant's vertical scrollbar, as --vg-gutter: the pinned action column sits left of it.
 * Measured after every render (rows come and go) and on resizes.
 */
function useScrollbarGutter(box: RefObject<HTMLDivElement | null>): void {
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const main = element.querySelector<HTMLElement>('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container');
      element.style.setProperty('--vg-gutter', `${main ? main.offsetWidth - main.clientWidth : 0}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  });
}

/**
 * The list's grid (Blueprint Table, loaded with the first list page so the login bundle stays small). The action
 * column is pinned to the right like Avue's `fixed: 'right'`: it is the table's frozen first column, whose quadrant
 * crud.css moves to the right edge (see there), so it stays in view however far the fields scroll.
 */
export default function CrudTable({ lines, loading, fields, firstIndex, selected, onSelect, sort, onSort, tree, onExpand, actions, actionCount }: CrudTableProps) {
  const { t, i18n } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  useScrollbarGutter(box);
  const ids = lines.map((l) => l.row.id);
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  const pinned = actionsWidthOf(actionCount);
  const header = (name: ReactNode) => () => <ColumnHeaderCell nameRenderer={() => <div className="vg-column-name">{name}</div>} />;

  const fieldColumn = (field: FieldView, position: number) => {
    const sortable = field.sortable !== false;
    const arrow = sort?.field === field.name ? (sort.desc ? 'arrow-down' : 'arrow-up') : undefined;
    const name = (
      <div className={sortable ? 'vg-sortable' : undefined} data-sort={field.name} onClick={sortable ? () => onSort(field.name) : undefined}>
        {i18n._(field.label)} {arrow && <Icon icon={arrow} size={12} />}
      </div>
    );
    return (
      <Column
        key={field.name}
        id={field.name}
        columnHeaderCellRenderer={header(name)}
        cellRenderer={(r) => {
          const line = lines[r];
          const caret = tree && position === 0 && (
            <span className="vg-tree-indent" style={{ paddingLeft: line.depth * 16 }}>
              {line.expandable ? (
                <Button size="small" variant="minimal" className="vg-tree-toggle" icon={line.expanded ? 'caret-down' : 'caret-right'} onClick={() => onExpand(line)} aria-label={t`展开`} />
              ) : (
                <span className="vg-tree-leaf" />
              )}
            </span>
          );
          return (
            <Cell className="vg-cell">
              {caret}
              <FieldCell field={field} row={line.row} />
            </Cell>
          );
        }}
      />
    );
  };

  return (
    <div className="vg-crud-table vg-pinned-table" ref={box} style={{ '--vg-pin': `${pinned}px` } as CSSProperties}>
      <Table2
        numRows={lines.length}
        numFrozenColumns={1}
        enableRowHeader={false}
        enableFocusedCell={false}
        selectionModes={[]}
        defaultRowHeight={36}
        renderMode={RenderMode.NONE}
        columnWidths={[pinned, 40, 56, ...fields.map((f) => f.width ?? 180), pinned]}
        cellRendererDependencies={[lines, selected, sort, i18n.locale, fields, actionCount]}
      >
        {[
        <Column
          key="actions"
          id="actions"
          columnHeaderCellRenderer={header(t`操作`)}
          cellRenderer={(r) => (
            <Cell className="vg-cell vg-row-actions" interactive>
              <RowButtons buttons={actions(lines[r].row)} compact={isCompact(actionCount)} />
            </Cell>
          )}
        />,
        <Column
          key="select"
          id="select"
          columnHeaderCellRenderer={header(<Checkbox className="vg-select-all" checked={allSelected} indeterminate={!allSelected && ids.some((id) => selected.has(id))} onChange={() => onSelect(new Set(allSelected ? [] : ids))} />)}
          cellRenderer={(r) => (
            <Cell className="vg-cell">
              <Checkbox className="vg-select" checked={selected.has(lines[r].row.id)} onChange={() => onSelect(toggled(selected, lines[r].row.id))} />
            </Cell>
          )}
        />,
        <Column key="index" id="index" columnHeaderCellRenderer={header('#')} cellRenderer={(r) => <Cell className="vg-cell">{firstIndex + r}</Cell>} />,
        ...fields.map(fieldColumn),
        // Room under the pinned column, so the last field can scroll out from under it.
        <Column key="pin-spacer" id="pin-spacer" columnHeaderCellRenderer={header('')} cellRenderer={() => <Cell className="vg-pin-spacer" />} />,
        ]}
      </Table2>
      {lines.length === 0 && !loading && <NonIdealState icon="inbox" description={t`暂无数据`} className="vg-crud-empty" />}
    </div>
  );
}
