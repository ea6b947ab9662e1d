import { Button, Popover, Spinner, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { LazyOption } from './types';

interface Props {
  id: string;
  value: unknown;
  disabled?: boolean;
  invalid?: boolean;
  /** The nodes below `parent` ('' the top level). */
  level(parent: string): Promise<LazyOption[]>;
  titleOf(value: string): Promise<string | undefined>;
  onChange(value: string): void;
  onClose?(): void;
}

/** The stored value's name: from the node clicked, else asked once (a form opened on a stored row). */
function useTitle(value: string, picked: Map<string, string>, titleOf: Props['titleOf']): string | undefined {
  const [asked, setAsked] = useState<{ value: string; title?: string }>();
  const known = picked.get(value);
  useEffect(() => {
    if (!value || known !== undefined) return;
    let live = true;
    void titleOf(value).then((title) => live && setAsked({ value, title }), () => live && setAsked({ value }));
    return () => {
      live = false;
    };
  }, [value, known, titleOf]);
  return known ?? (asked?.value === value ? (asked.title ?? value) : undefined);
}

/** A tree in a popover whose levels load when opened (regions: thousands of nodes); clicking a node picks it. */
export function LazyTreeSelect({ id, value, disabled, invalid, level, titleOf, onChange, onClose }: Props) {
  const { t } = useLingui();
  const [levels, setLevels] = useState<ReadonlyMap<string, LazyOption[]>>(new Map());
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [picked] = useState(() => new Map<string, string>());
  const current = value === undefined || value === null ? '' : String(value);
  const title = useTitle(current, picked, titleOf);

  const load = (parent: string) => {
    if (levels.has(parent)) return;
    void level(parent).then((nodes) => setLevels((prev) => new Map(prev).set(parent, nodes)), () => setLevels((prev) => new Map(prev).set(parent, [])));
  };
  const build = (parent: string): TreeNodeInfo<string>[] =>
    (levels.get(parent) ?? []).map((n) => ({
      id: n.id,
      label: n.title,
      nodeData: n.title,
      isSelected: n.id === current,
      isExpanded: open.has(n.id),
      hasCaret: n.hasChildren !== false,
      childNodes: open.has(n.id) ? (levels.has(n.id) ? build(n.id) : [{ id: `${n.id}-loading`, label: <Spinner size={12} /> }]) : undefined,
    }));
  const toggle = (node: TreeNodeInfo<string>, on: boolean) => {
    const nodeId = String(node.id);
    if (on) load(nodeId);
    setOpen((prev) => {
      const next = new Set(prev);
      if (on) next.add(nodeId);
      else next.delete(nodeId);
      return next;
    });
  };
  const pick = (node: TreeNodeInfo<string>) => {
    if (!node.nodeData) return;
    picked.set(String(node.id), node.nodeData);
    onChange(String(node.id));
  };
  return (
    <Popover disabled={disabled} fill placement="bottom-start" onOpening={() => load('')} onClosed={onClose}
      content={
        <div className="vg-tree-select" data-tree-select={id}>
          {levels.has('') ? <Tree contents={build('')} onNodeClick={pick} onNodeExpand={(n) => toggle(n, true)} onNodeCollapse={(n) => toggle(n, false)} /> : <Spinner size={20} />}
        </div>
      }
    >
      <Button id={id} alignText="start" fill endIcon="caret-down" disabled={disabled} intent={invalid ? 'danger' : 'none'} variant={invalid ? 'outlined' : undefined}
        text={current ? (title ?? current) : t`请选择`} />
    </Popover>
  );
}
