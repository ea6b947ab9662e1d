import { Checkbox, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import type { TreeOption } from './types';

interface CheckTreeProps {
  nodes: readonly TreeOption[];
  checked: ReadonlySet<string>;
  onChange(next: Set<string>): void;
}

/** Ids of a node and everything below it. */
const subtreeIds = (node: TreeOption): string[] => [node.id, ...(node.children ?? []).flatMap(subtreeIds)];

function indexOf(nodes: readonly TreeOption[], parent?: string, out = { byId: new Map<string, TreeOption>(), parentOf: new Map<string, string>() }) {
  for (const node of nodes) {
    out.byId.set(node.id, node);
    if (parent) out.parentOf.set(node.id, parent);
    indexOf(node.children ?? [], node.id, out);
  }
  return out;
}

/**
 * A tree of checkboxes for grant dialogs (role grant, top menu grant). Checking a node checks its subtree and its
 * ancestors, so a granted button keeps the menus above it; unchecking clears the subtree only. Opens fully expanded.
 */
export function CheckTree({ nodes, checked, onChange }: CheckTreeProps) {
  const index = useMemo(() => indexOf(nodes), [nodes]);
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());

  const toggle = (id: string) => {
    const node = index.byId.get(id);
    if (!node) return;
    const next = new Set(checked);
    if (checked.has(id)) {
      for (const below of subtreeIds(node)) next.delete(below);
    } else {
      for (const below of subtreeIds(node)) next.add(below);
      for (let up = index.parentOf.get(id); up; up = index.parentOf.get(up)) next.add(up);
    }
    onChange(next);
  };
  const build = (list: readonly TreeOption[]): TreeNodeInfo<string>[] =>
    list.map((n) => ({
      id: n.id,
      label: (
        <span data-node={n.id} className="vg-check-node">
          <Checkbox checked={checked.has(n.id)} label={n.title} onChange={() => toggle(n.id)} onClick={(e) => e.stopPropagation()} style={{ margin: 0 }} />
        </span>
      ),
      isExpanded: !closed.has(n.id),
      hasCaret: !!n.children?.length,
      childNodes: n.children ? build(n.children) : undefined,
    }));
  const fold = (id: string, open: boolean) =>
    setClosed((prev) => {
      const next = new Set(prev);
      if (open) next.delete(id);
      else next.add(id);
      return next;
    });
  return <Tree className="vg-check-tree" contents={build(nodes)} onNodeExpand={(n) => fold(String(n.id), true)} onNodeCollapse={(n) => fold(String(n.id), false)} />;
}
