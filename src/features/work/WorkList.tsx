import { Button, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, type Key, type ReactNode, useEffect, useReducer, useState } from 'react';
import type { Page } from '../../crud/api';
import { PAGE_SIZES } from '../../crud/query';
import type { ListParams } from './api';
import '../../crud/crud.css';
import './work.css';

/** A column of a work list: its header and its cell. */
export interface WorkColumn<T> {
  key: string;
  title: MessageDescriptor;
  cell(row: T): ReactNode;
  width?: number;
}

/** A search box of the list's bar: a text, or one of fixed choices. */
export interface WorkSearch {
  name: string;
  label: MessageDescriptor;
  options?: ReadonlyArray<{ value: string; label: MessageDescriptor }>;
}

export interface WorkListProps<T> {
  load(params: ListParams): Promise<Page<T>>;
  columns: readonly WorkColumn<T>[];
  rowKey(row: T): Key;
  search: readonly WorkSearch[];
  /** The row's buttons; `refresh` reloads the page shown. */
  actions?(row: T, refresh: () => void): ReactNode;
  /** Bumped from outside to reload (after a dialog of the page changed something). */
  reloadKey?: number;
}

interface ListState {
  search: Record<string, string>;
  current: number;
  size: number;
}

type ListAction = { type: 'search'; search: Record<string, string> } | { type: 'page'; current: number } | { type: 'size'; size: number };

/** A search or a page size starts again from page 1. */
export function nextState(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case 'search':
      return { ...state, search: Object.fromEntries(Object.entries(action.search).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()])), current: 1 };
    case 'page':
      return { ...state, current: Math.max(1, action.current) };
    case 'size':
      return { ...state, size: action.size, current: 1 };
  }
}

/**
 * A list of my work or of follow-up (spec §4 "Workflow task lists"): the search bar, a page of rows with their
 * buttons, and the pager with the generic page's sizes (10/30/50/100/200). Rows of these calls are tasks and
 * instances, named by `taskId` / `processInstanceId` rather than an `id`, so they are not the generic page's.
 */
export function WorkList<T>({ load, columns, rowKey, search, actions, reloadKey = 0 }: WorkListProps<T>) {
  const { t, i18n } = useLingui();
  const [state, dispatch] = useReducer(nextState, { search: {}, current: 1, size: PAGE_SIZES[0] });
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [page, setPage] = useState<Page<T>>();
  const [loading, setLoading] = useState(true);
  const [reloads, reload] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    load({ current: state.current, size: state.size, ...state.search })
      .then((answer) => live && setPage(answer))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [load, state, reloads, reloadKey]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch({ type: 'search', search: draft });
  };
  const total = Number(page?.total ?? 0);
  const pages = Math.max(1, Math.ceil(total / state.size));
  const rows = page?.records ?? [];

  return (
    <div className="vg-page vg-crud vg-work">
      <div className="vg-crud-main">
        <form className="vg-crud-search" onSubmit={submit}>
          {search.map((field) => (
            <label key={field.name} className="vg-search-item">
              <span>{i18n._(field.label)}</span>
              {field.options ? (
                <HTMLSelect
                  id={`search-${field.name}`}
                  value={draft[field.name] ?? ''}
                  onChange={(e) => setDraft((d) => ({ ...d, [field.name]: e.target.value }))}
                  options={[{ value: '', label: t`全部` }, ...field.options.map((o) => ({ value: o.value, label: i18n._(o.label) }))]}
                />
              ) : (
                <InputGroup id={`search-${field.name}`} value={draft[field.name] ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [field.name]: e.target.value }))} />
              )}
            </label>
          ))}
          <Button type="submit" intent="primary" icon="search" text={t`搜索`} className="vg-search" />
          <Button
            icon="delete"
            text={t`清空`}
            className="vg-search-reset"
            onClick={() => {
              setDraft({});
              dispatch({ type: 'search', search: {} });
            }}
          />
          <span className="vg-spacer" />
          {loading && page && <Spinner size={16} />}
          <Button icon="refresh" variant="minimal" title={t`刷新`} onClick={reload} />
        </form>
        <div className="vg-work-table">
          <HTMLTable compact striped interactive style={{ width: '100%' }}>
            <thead>
              <tr>
                <th className="vg-work-index">#</th>
                {columns.map((column) => (
                  <th key={column.key} style={column.width ? { minWidth: column.width } : undefined}>
                    {i18n._(column.title)}
                  </th>
                ))}
                {actions && <th className="vg-work-actions">{t`操作`}</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={rowKey(row)} className="vg-work-row">
                  <td className="vg-work-index">{(state.current - 1) * state.size + index + 1}</td>
                  {columns.map((column) => (
                    <td key={column.key} className={`vg-work-cell-${column.key}`}>
                      {column.cell(row)}
                    </td>
                  ))}
                  {actions && <td className="vg-work-actions">{actions(row, reload)}</td>}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          {!page && loading && <Spinner className="vg-work-loading" size={24} />}
          {page && rows.length === 0 && !loading && <NonIdealState icon="inbox" title={t`暂无数据`} className="vg-work-empty" />}
        </div>
        <div className="vg-crud-pager">
          <span className="vg-total">{page ? t`共 ${total} 条` : ''}</span>
          <HTMLSelect
            className="vg-page-size"
            value={state.size}
            onChange={(e) => dispatch({ type: 'size', size: Number(e.target.value) })}
            options={PAGE_SIZES.map((n) => ({ value: n, label: t`${n} 条/页` }))}
          />
          <Button icon="chevron-left" variant="minimal" className="vg-prev" disabled={state.current <= 1} onClick={() => dispatch({ type: 'page', current: state.current - 1 })} />
          <span className="vg-current">
            {state.current} / {pages}
          </span>
          <Button icon="chevron-right" variant="minimal" className="vg-next" disabled={state.current >= pages} onClick={() => dispatch({ type: 'page', current: state.current + 1 })} />
        </div>
      </div>
    </div>
  );
}
