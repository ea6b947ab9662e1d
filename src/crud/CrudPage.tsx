import { Button, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, Suspense, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { Resource } from '../../resources/define';
import { lazyPage } from '../app/lazyPage';
import { usePermissions } from '../app/permissions';
import { useNarrow } from '../app/useViewport';
import { confirm } from '../ui/confirm';
import { toastSuccess, toastWarning } from '../ui/toast';
import { crudCalls, type Params, type Row } from './api';
import { ColumnChooser } from './ColumnChooser';
import { CrudCards } from './CrudCards';
import { CrudSkeleton } from './CrudSkeleton';
import { ExportButton } from './ExportButton';
import { FormDialog, type FormRequest } from './FormDialog';
import { initialListState, listParams, nextListState, nextSort, PAGE_SIZES, type TreeLine, treeLines } from './query';
import { withReferences } from './references';
import type { RowButton } from './RowButtons';
import type { Actions, CrudView, FieldView, FormMode, TreeView } from './types';
import { useColumns } from './useColumns';
import { FieldInput, widgetOf } from './widgets';
import './crud.css';

const CrudTable = lazyPage<import('./CrudTable').CrudTableProps>(() => import('./CrudTable'));

export interface CrudPageProps<R extends Resource> {
  view: CrudView<R>;
  /** Filters of every list call set from outside (a dept picked in a tree beside the list). */
  params?: Params;
  /** A slot beside the list (the user page's dept tree). */
  aside?: ReactNode;
  /** Extra toolbar buttons; a function gets the selected rows (batch actions such as 重置密码). */
  toolbar?: ReactNode | ((context: ToolbarContext) => ReactNode);
  /** Search values the list starts with (the notice dialog opened on one notice). */
  initialSearch?: Record<string, unknown>;
  /** After the form saved a row: what the server answered (a display link's secret, shown once). */
  onSaved?: (saved: Row, mode: FormMode) => void;
}

export interface ToolbarContext {
  selected: Row[];
  /** The rows of the current page (mark all as read). */
  records: readonly Row[];
  refresh(): void;
}

type Action = keyof Actions;

/** Text-like widgets search with a plain text box. */
const searchField = (field: FieldView): FieldView =>
  ['textarea', 'richText', 'upload', 'number', 'pre'].includes(widgetOf(field).type) ? { ...field, widget: { type: 'text' } } : field;

/** Children of the open rows of a tree table, level by level (rows carrying `children` need no call). */
async function childrenOfOpenRows(tree: TreeView, rows: readonly Row[], open: ReadonlySet<string>): Promise<Map<string, Row[]>> {
  const loaded = new Map<string, Row[]>();
  let level = rows.filter((row) => open.has(row.id));
  while (level.length) {
    const next: Row[] = [];
    for (const row of level) {
      const children = Array.isArray(row.children) ? (row.children as Row[]) : await tree.children(row).catch(() => []);
      if (!Array.isArray(row.children)) loaded.set(row.id, children);
      next.push(...children.filter((child) => open.has(child.id)));
    }
    level = next;
  }
  return loaded;
}

/** The generic list/edit page (spec §2 "Generic list/edit pages"), driven by one view declaration. */
export function CrudPage<R extends Resource>({ view: declared, params, aside, toolbar, initialSearch, onSaved }: CrudPageProps<R>) {
  const { t, i18n } = useLingui();
  const view = useMemo(() => withReferences(declared), [declared]);
  const calls = useMemo(() => crudCalls(view.resource), [view.resource]);
  const permissions = usePermissions();
  const can = (action: Action) => view.actions?.[action] === 'always' || (view.actions?.[action] !== false && permissions[`${view.resource.menu}_${action}`] === true);

  const [state, dispatch] = useReducer(nextListState, view.pageSize, (size?: number) => ({ ...initialListState(size), search: initialSearch ?? {} }));
  const [draft, setDraft] = useState<Record<string, unknown>>(initialSearch ?? {});
  const [records, setRecords] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [unpaged, setUnpaged] = useState(false);
  const [loading, setLoading] = useState(true);
  // Until the first answer there is no list to call empty: skeleton rows, no total.
  const [loaded, setLoaded] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [children, setChildren] = useState<ReadonlyMap<string, Row[]>>(new Map());
  const [form, setForm] = useState<FormRequest>();
  const [reloads, reload] = useReducer((n: number) => n + 1, 0);

  const fixed = JSON.stringify({ ...view.list?.params, ...params });
  // New outside filters (a dept picked beside the list) start again from page 1, like a search.
  const [fixedShown, setFixedShown] = useState(fixed);
  if (fixed !== fixedShown) {
    setFixedShown(fixed);
    dispatch({ type: 'page', current: 1 });
  }
  // A reload keeps the tree's open rows open: their children are fetched again with the page.
  const expandedNow = useRef(expanded);
  expandedNow.current = expanded;
  useEffect(() => {
    let live = true;
    setLoading(true);
    calls
      .list(listParams(state, JSON.parse(fixed) as Params), view.list?.call)
      .then(async (page) => {
        const rows = page.records ?? [];
        const loaded = view.tree ? await childrenOfOpenRows(view.tree, rows, expandedNow.current) : new Map<string, Row[]>();
        if (!live) return;
        setRecords(rows);
        setTotal(Number(page.total ?? 0));
        setUnpaged(page.unpaged === true);
        setSelected(new Set());
        setChildren(loaded);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!live) return;
        setLoading(false);
        setLoaded(true);
      });
    return () => {
      live = false;
    };
  }, [calls, state, fixed, reloads, view.list?.call, view.tree]);

  const openForm = useCallback((mode: FormMode, row?: Row, initial?: Record<string, unknown>) => setForm({ mode, row, initial }), []);

  async function remove(ids: readonly string[]) {
    const notice = view.removeNotice ? await view.removeNotice(ids).catch(() => undefined) : undefined;
    if (!(await confirm(t`确定将选择数据删除?`, notice))) return;
    try {
      await calls.remove(ids);
      toastSuccess(t`删除成功`);
      reload();
    } catch {
      // the request layer has shown the failure
    }
  }

  function removeSelected() {
    if (selected.size === 0) return toastWarning(t`请选择至少一条数据`);
    void remove([...selected]);
  }

  async function expand(line: TreeLine) {
    const id = line.row.id;
    if (line.expanded) {
      setExpanded((prev) => new Set([...prev].filter((x) => x !== id)));
      return;
    }
    if (!children.has(id) && !Array.isArray(line.row.children) && view.tree) {
      const rows = await view.tree.children(line.row).catch(() => undefined);
      if (!rows) return;
      setChildren((prev) => new Map(prev).set(id, rows));
    }
    setExpanded((prev) => new Set(prev).add(id));
  }

  function search(event: FormEvent) {
    event.preventDefault();
    dispatch({ type: 'search', search: draft });
  }

  const tableFields = useMemo(() => view.fields.filter((f) => !f.hideInTable), [view.fields]);
  // The user's columns of this screen, named by its resource and list call (a dictionary's parent and child lists).
  const columns = useColumns(`${view.resource.key}/${view.list?.call ?? 'list'}`, tableFields);
  const narrow = useNarrow();
  const searchFields = view.fields.filter((f) => f.search);
  const lines = view.tree ? treeLines(records, expanded, children) : records.map((row) => ({ row, depth: 0, expandable: false, expanded: false }));
  const pages = unpaged ? 1 : Math.max(1, Math.ceil(total / state.size));
  const context = { openForm, refresh: reload };
  const rowButtons = (row: Row): RowButton[] => [
    ...(can('view') ? [{ key: 'view', icon: 'eye-open', text: t`查看`, run: () => openForm('view', row) } as const] : []),
    ...(can('edit') ? [{ key: 'edit', icon: 'edit', text: t`编辑`, run: () => openForm('edit', row) } as const] : []),
    ...(can('delete') ? [{ key: 'delete', icon: 'trash', text: t`删除`, intent: 'danger', run: () => void remove([row.id]) } as const] : []),
    ...(view.rowActions ?? [])
      .filter((a) => (!a.permission || permissions[`${view.resource.menu}_${a.permission}`] === true) && (!a.visible || a.visible(row)))
      .map((a): RowButton => ({ key: a.key, icon: a.icon ?? 'cog', text: i18n._(a.label), run: () => a.run(row, context) })),
  ];
  const actionCount = (['view', 'edit', 'delete'] as const).filter(can).length + (view.rowActions?.length ?? 0);
  const listProps = {
    loading,
    lines,
    fields: columns.shown,
    firstIndex: (state.current - 1) * state.size + 1,
    selected,
    onSelect: setSelected,
    tree: !!view.tree,
    onExpand: (line: TreeLine) => void expand(line),
    actions: rowButtons,
  };

  return (
    <div className="vg-page vg-crud">
      {aside && <aside className="vg-crud-aside">{aside}</aside>}
      <div className="vg-crud-main">
        {(searchFields.length > 0 || view.dateRange) && (
          <form className="vg-crud-search" onSubmit={search}>
            {searchFields.map((field) => (
              <label key={field.name} className="vg-search-item">
                <span>{i18n._(field.label)}</span>
                <FieldInput id={`search-${field.name}`} field={searchField(field)} value={draft[field.name]} onChange={(value) => setDraft((d) => ({ ...d, [field.name]: value }))} onBlur={() => undefined} />
              </label>
            ))}
            {view.dateRange && (
              <label className="vg-search-item">
                <span>{t`创建时间`}</span>
                <InputGroup id="search-date-from" type="date" value={state.range[0]} onChange={(e) => dispatch({ type: 'range', range: [e.target.value, state.range[1]] })} />
                <span>-</span>
                <InputGroup id="search-date-to" type="date" value={state.range[1]} onChange={(e) => dispatch({ type: 'range', range: [state.range[0], e.target.value] })} />
              </label>
            )}
            <Button type="submit" intent="primary" icon="search" text={t`搜索`} className="vg-search" />
            <Button icon="delete" text={t`清空`} className="vg-search-reset" onClick={() => { setDraft({}); dispatch({ type: 'search', search: {} }); }} />
          </form>
        )}
        <div className="vg-crud-toolbar">
          {can('add') && <Button intent="primary" icon="plus" text={t`新增`} className="vg-add" onClick={() => openForm('add')} />}
          {can('delete') && <Button intent="danger" icon="trash" text={t`删除`} className="vg-batch-delete" onClick={removeSelected} />}
          {(view.toolbarActions ?? [])
            .filter((a) => !a.permission || permissions[`${view.resource.menu}_${a.permission}`] === true)
            .map((a) => (
              <Button key={a.key} icon={a.icon ?? 'cog'} text={i18n._(a.label)} className={`vg-toolbar-${a.key}`} onClick={() => a.run(context)} />
            ))}
          {typeof toolbar === 'function' ? toolbar({ selected: records.filter((row) => selected.has(row.id)), records, refresh: reload }) : toolbar}
          {view.actions?.export !== false && <ExportButton view={view} params={() => listParams(state, JSON.parse(fixed) as Params)} />}
          <span className="vg-spacer" />
          {loading && loaded && <Spinner size={16} />}
          <ColumnChooser columns={columns} />
          <Button icon="refresh" variant="minimal" title={t`刷新`} onClick={reload} />
        </div>
        {!loaded ? (
          <CrudSkeleton />
        ) : narrow ? (
          <CrudCards {...listProps} />
        ) : (
          <Suspense fallback={<CrudSkeleton />}>
            <CrudTable {...listProps} sort={state.sort} onSort={(field) => dispatch({ type: 'sort', sort: nextSort(state.sort, field) })} actionCount={actionCount} />
          </Suspense>
        )}
        <div className="vg-crud-pager">
          <span className="vg-total">{loaded ? t`共 ${total} 条` : ''}</span>
          <HTMLSelect className="vg-page-size" value={state.size} onChange={(e) => dispatch({ type: 'size', size: Number(e.target.value) })}
            options={PAGE_SIZES.map((n) => ({ value: n, label: t`${n} 条/页` }))} />
          <Button icon="chevron-left" variant="minimal" className="vg-prev" disabled={state.current <= 1} onClick={() => dispatch({ type: 'page', current: state.current - 1 })} />
          <span className="vg-current">{state.current} / {pages}</span>
          <Button icon="chevron-right" variant="minimal" className="vg-next" disabled={state.current >= pages} onClick={() => dispatch({ type: 'page', current: state.current + 1 })} />
        </div>
      </div>
      {form && (
        <FormDialog
          view={view}
          calls={calls}
          request={form}
          onClose={() => setForm(undefined)}
          onSaved={(saved) => {
            setForm(undefined);
            reload();
            onSaved?.(saved, form.mode);
          }}
        />
      )}
    </div>
  );
}
