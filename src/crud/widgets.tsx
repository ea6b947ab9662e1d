import { Button, Checkbox, FileInput, HTMLSelect, InputGroup, NumericInput, Popover, ProgressBar, Switch, Tag, TextArea, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useRef, useState } from 'react';
import { putFile } from '../api/resource';
import { dictionary, type DictEntry, type Row, treeOf } from './api';
import { DateInput } from './DateInput';
import { LazyTreeSelect } from './LazyTreeSelect';
import { sanitizeHtml } from './sanitize';
import type { FieldView, TreeOption, TreeSource, Widget } from './types';

const TEXT: Widget = { type: 'text' };
export const widgetOf = (field: FieldView): Widget => field.widget ?? TEXT;

/** Entries of a dictionary code, loaded once. */
export function useDictionary(code: string | undefined, service?: 'dict' | 'dict-biz'): DictEntry[] {
  const [entries, setEntries] = useState<DictEntry[]>([]);
  useEffect(() => {
    if (code) void dictionary(code, service).then(setEntries, () => setEntries([]));
  }, [code, service]);
  return entries;
}

/** The choices of a select (its dictionary or its fixed options) or the labels of a switch's dictionary. */
function useChoices(widget: Widget): DictEntry[] {
  const { i18n } = useLingui();
  const fixed = widget.type === 'select' && 'options' in widget ? widget.options : undefined;
  const dict = widget.type === 'select' && 'dict' in widget ? widget.dict : widget.type === 'switch' ? widget.dict : undefined;
  const entries = useDictionary(dict, widget.type === 'select' && 'service' in widget ? widget.service : undefined);
  return fixed ? fixed.map((o) => ({ dictKey: o.value, dictValue: i18n._(o.label) })) : entries;
}

/** A GET path with the parameters added to its query string. */
const withQuery = (path: string, query?: Readonly<Record<string, string>>) => {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
};

function useTree(source: TreeSource | undefined, editing?: Row, query?: Readonly<Record<string, string>>): TreeOption[] {
  const [nodes, setNodes] = useState<TreeOption[]>([]);
  // The query is rebuilt on every render of the form: its text decides when to load again.
  const key = query ? JSON.stringify(query) : '';
  useEffect(() => {
    if (!source) return;
    const asked = key ? (JSON.parse(key) as Record<string, string>) : undefined;
    let current = true;
    const load = typeof source === 'string' ? treeOf(withQuery(source, asked)) : source(editing, asked);
    // A slower answer for an earlier query must not replace the nodes of the current one.
    void load.then((found) => current && setNodes(found), () => current && setNodes([]));
    return () => {
      current = false;
    };
  }, [source, editing, key]);
  return nodes;
}

const idsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined || value === null || value === '' ? [] : String(value).split(',');

function titlesOf(nodes: readonly TreeOption[], ids: ReadonlySet<string>): string[] {
  return nodes.flatMap((n) => [...(ids.has(n.id) ? [n.title] : []), ...titlesOf(n.children ?? [], ids)]);
}

/** The ids of the nodes that are headings only. */
function groupsOf(nodes: readonly TreeOption[], into = new Set<string>()): Set<string> {
  for (const n of nodes) {
    if (n.group) into.add(n.id);
    groupsOf(n.children ?? [], into);
  }
  return into;
}

interface TreeSelectProps {
  id: string;
  source: TreeSource;
  multiple?: boolean;
  value: unknown;
  disabled?: boolean;
  onChange(value: string | string[]): void;
  onClose?(): void;
  /** The row the form edits (handed to a function source). */
  editing?: Row;
  /** Parameters of the source (see the tree widget's `query`). */
  query?: Readonly<Record<string, string>>;
  invalid?: boolean;
}

/** A tree in a popover: single (click a node) or multiple (check nodes). Values are node ids. */
export function TreeSelect({ id, source, multiple, value, disabled, onChange, onClose, editing, query, invalid }: TreeSelectProps) {
  const { t } = useLingui();
  const nodes = useTree(source, editing, query);
  const selected = useMemo(() => new Set(idsOf(value)), [value]);
  const [open, setOpen] = useState<Set<string>>(new Set());

  const toggle = (nodeId: string) => {
    if (!multiple) return onChange(nodeId);
    const next = new Set(selected);
    if (next.has(nodeId)) next.delete(nodeId);
    else next.add(nodeId);
    onChange([...next]);
  };
  const build = (list: readonly TreeOption[]): TreeNodeInfo<string>[] =>
    list.map((n) => ({
      id: n.id,
      nodeData: n.id,
      label: multiple && !n.group ? <Checkbox checked={selected.has(n.id)} label={n.title} onChange={() => toggle(n.id)} onClick={(e) => e.stopPropagation()} style={{ margin: 0 }} /> : n.title,
      isSelected: !multiple && !n.group && selected.has(n.id),
      isExpanded: open.has(n.id),
      hasCaret: !!n.children?.length,
      childNodes: n.children ? build(n.children) : undefined,
    }));
  const expand = (node: TreeNodeInfo<string>, on: boolean) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (on) next.add(String(node.id));
      else next.delete(String(node.id));
      return next;
    });
  const titles = titlesOf(nodes, selected);
  const groups = useMemo(() => groupsOf(nodes), [nodes]);
  return (
    <Popover
      disabled={disabled}
      fill
      placement="bottom-start"
      onClosed={onClose}
      content={
        <div className="vg-tree-select" data-tree-select={id}>
          <Tree contents={build(nodes)} onNodeClick={(n) => !multiple && !groups.has(String(n.id)) && toggle(String(n.id))} onNodeExpand={(n) => expand(n, true)} onNodeCollapse={(n) => expand(n, false)} />
        </div>
      }
    >
      <Button id={id} alignText="start" fill endIcon="caret-down" disabled={disabled} intent={invalid ? 'danger' : 'none'} variant={invalid ? 'outlined' : undefined}
        text={titles.length ? titles.join(', ') : t`请选择`} />
    </Popover>
  );
}

/** A small rich-text editor: contentEditable with a few commands; its HTML is sanitised on every change. */
export function RichTextEditor({ id, value, disabled, onChange, onBlur }: { id: string; value: string; disabled?: boolean; onChange(html: string): void; onBlur(): void }) {
  const { t } = useLingui();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Set the content from outside only when it differs, so the caret is not reset while typing.
    if (ref.current && ref.current.innerHTML !== value) ref.current.innerHTML = sanitizeHtml(value);
  }, [value]);
  const command = (name: string) => {
    document.execCommand(name);
    if (ref.current) onChange(sanitizeHtml(ref.current.innerHTML));
  };
  return (
    <div className="vg-rich-text">
      {!disabled && (
        <div className="vg-rich-text-toolbar">
          <Button size="small" variant="minimal" icon="bold" title={t`加粗`} onMouseDown={(e) => e.preventDefault()} onClick={() => command('bold')} />
          <Button size="small" variant="minimal" icon="italic" title={t`斜体`} onMouseDown={(e) => e.preventDefault()} onClick={() => command('italic')} />
          <Button size="small" variant="minimal" icon="underline" title={t`下划线`} onMouseDown={(e) => e.preventDefault()} onClick={() => command('underline')} />
          <Button size="small" variant="minimal" icon="properties" title={t`列表`} onMouseDown={(e) => e.preventDefault()} onClick={() => command('insertUnorderedList')} />
        </div>
      )}
      <div
        id={id}
        ref={ref}
        className="vg-rich-text-body bp6-input"
        contentEditable={!disabled}
        suppressContentEditableWarning
        onInput={(e) => onChange(sanitizeHtml(e.currentTarget.innerHTML))}
        onBlur={onBlur}
      />
    </div>
  );
}

function Upload({ id, accept, value, disabled, onChange }: { id: string; accept: 'image' | 'file'; value: string; disabled?: boolean; onChange(link: string): void }) {
  const { t } = useLingui();
  // The share of the file sent while uploading (undefined once sent: the server stores it).
  const [busy, setBusy] = useState<{ fraction?: number }>();
  async function upload(file: File | undefined) {
    if (!file) return;
    setBusy({ fraction: 0 });
    try {
      onChange((await putFile(file, (sent, total) => setBusy({ fraction: total && sent < total ? sent / total : undefined }))).link);
    } catch {
      // the request layer has shown the failure
    } finally {
      setBusy(undefined);
    }
  }
  return (
    <div className="vg-upload">
      {accept === 'image' && value ? <img className="vg-upload-preview" src={value} alt="" /> : value ? <a href={value} target="_blank" rel="noreferrer">{value}</a> : null}
      {!disabled && (
        <FileInput
          text={busy ? t`上传中…` : t`选择文件`}
          buttonText={t`浏览`}
          disabled={!!busy}
          inputProps={{ id, accept: accept === 'image' ? 'image/*' : undefined }}
          onInputChange={(e) => void upload((e.target as HTMLInputElement).files?.[0])}
        />
      )}
      {busy && <ProgressBar className="vg-upload-progress" intent="primary" value={busy.fraction} stripes={busy.fraction === undefined} />}
    </div>
  );
}

export interface FieldInputProps {
  id: string;
  field: FieldView;
  value: unknown;
  disabled?: boolean;
  onChange(value: unknown): void;
  onBlur(): void;
  /** The row the form edits, if any. */
  editing?: Row;
  /** The form's values (a tree widget's `query` reads them). */
  values?: Readonly<Record<string, unknown>>;
  /** The field has a problem: its control is outlined in red. */
  invalid?: boolean;
}

const textOf = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The form control of a field's widget. */
export function FieldInput({ id, field, value, disabled, onChange, onBlur, editing, values, invalid }: FieldInputProps) {
  const { t } = useLingui();
  const widget = widgetOf(field);
  const entries = useChoices(widget);
  const intent = invalid ? 'danger' : 'none';
  switch (widget.type) {
    case 'textarea':
      return <TextArea id={id} fill rows={widget.rows ?? 3} value={textOf(value)} disabled={disabled} intent={intent} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} />;
    case 'number':
      return (
        <NumericInput id={id} fill min={widget.min} max={widget.max} value={textOf(value)} disabled={disabled} allowNumericCharactersOnly intent={intent}
          onValueChange={(_n, text) => onChange(text)} onBlur={onBlur} />
      );
    case 'switch':
      return <Switch id={id} checked={Number(value) === 1} disabled={disabled} onChange={(e) => { onChange(e.currentTarget.checked ? 1 : 0); onBlur(); }} />;
    case 'select':
      return (
        <HTMLSelect id={id} fill value={textOf(value)} disabled={disabled} onChange={(e) => onChange(e.target.value)} onBlur={onBlur}
          options={[{ value: '', label: t`请选择` }, ...entries.map((e) => ({ value: e.dictKey, label: e.dictValue }))]} />
      );
    case 'tree':
      return (
        <TreeSelect id={id} source={widget.source} multiple={widget.multiple} value={value} disabled={disabled} onChange={onChange} onClose={onBlur} editing={editing}
          query={widget.query?.(values ?? {})} invalid={invalid} />
      );
    case 'lazyTree':
      return <LazyTreeSelect id={id} value={value} disabled={disabled} invalid={invalid} level={widget.children} titleOf={widget.titleOf} onChange={onChange} onClose={onBlur} />;
    case 'date':
      return <DateInput id={id} kind="date" value={textOf(value).slice(0, 10)} disabled={disabled} invalid={invalid} onChange={(date) => onChange(dateValue(date, widget.midnight))} onBlur={onBlur} />;
    case 'datetime':
      return <DateInput id={id} kind="datetime" value={textOf(value)} disabled={disabled} invalid={invalid} onChange={onChange} onBlur={onBlur} />;
    case 'upload':
      return <Upload id={id} accept={widget.accept} value={textOf(value)} disabled={disabled} onChange={(link) => { onChange(link); onBlur(); }} />;
    case 'richText':
      return <RichTextEditor id={id} value={textOf(value)} disabled={disabled} onChange={onChange} onBlur={onBlur} />;
    case 'pre':
      return <pre id={id} className="vg-pre bp6-code-block">{textOf(value)}</pre>;
    case 'password':
      return <InputGroup id={id} type="password" autoComplete="new-password" value={textOf(value)} disabled={disabled} intent={intent} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} />;
    case 'text':
      return <InputGroup id={id} value={textOf(value)} disabled={disabled} intent={intent} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} />;
  }
}

/** A whole date typed or picked is stored at midnight where the column is a datetime; a partial one as typed. */
const dateValue = (date: string, midnight?: boolean) => (midnight && /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date} 00:00:00` : date);

/** A field's value as the table shows it: dictionary values as tags, rich text as plain text, images as thumbnails. */
export function FieldCell({ field, row }: { field: FieldView; row: Row }) {
  const { t } = useLingui();
  const widget = widgetOf(field);
  const entries = useChoices(widget);
  const value = row[field.name];
  if (field.cell) return <>{field.cell(row)}</>;
  if (widget.type === 'select' || widget.type === 'switch') {
    if (value === undefined || value === null || value === '') return null;
    const label = entries.find((e) => e.dictKey === String(value))?.dictValue ?? (widget.type === 'switch' ? (Number(value) === 1 ? t`是` : t`否`) : String(value));
    return <Tag minimal intent={widget.type === 'switch' && Number(value) === 1 ? 'warning' : 'primary'}>{label}</Tag>;
  }
  // A date stored at midnight reads as the date alone (spec §2: yyyy-MM-dd).
  if (widget.type === 'date') return <>{textOf(value).slice(0, 10)}</>;
  if (widget.type === 'richText') return <>{new DOMParser().parseFromString(sanitizeHtml(textOf(value)), 'text/html').body.textContent}</>;
  if (widget.type === 'upload' && widget.accept === 'image' && value) return <img className="vg-cell-image" src={textOf(value)} alt="" />;
  return <>{textOf(value)}</>;
}
