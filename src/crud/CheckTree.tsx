import { Button, ButtonGroup, Checkbox, InputGroup, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import type { TreeOption } from './types';
import './crud.css';

interface CheckTreeProps {
  nodes: readonly TreeOption[];
  checked: ReadonlySet<string>;
  onChange(next: Set<string>): void;
  /** A search box and expand/collapse/select-all buttons above the tree (large trees: menus, projects). */
  tools?: boolean;
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

/** The nodes whose title holds `text`, with their subtrees and the path down to them. */
export function matching(nodes: readonly TreeOption[], text: string): TreeOption[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...nodes];
  return nodes.flatMap((node) => {
    if (node.title.toLowerCase().includes(needle)) return [node];
    const children = matching(node.children ?? [], needle);
    return children.length ? [{ ...node, children }] : [];
  });
}

/**
 * A tree of checkboxes for grant dialogs (role grant, top menu grant). Checking a node checks its subtree and its
 * ancestors, so a granted button keeps the menus above it; unchecking clears the subtree only. Opens fully expanded;
 * a search shows the matching nodes under their ancestors.
 */
export function CheckTree({ nodes, checked, onChange, tools = false }: CheckTreeProps) {
  const { t } = useLingui();
  const index = useMemo(() => indexOf(nodes), [nodes]);
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState('');
  const shown = useMemo(() => matching(nodes, search), [nodes, search]);

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
      // While searching every match is shown open.
      isExpanded: search.trim() !== '' || !closed.has(n.id),
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
  const branches = () => [...index.byId.values()].filter((n) => n.children?.length).map((n) => n.id);
  const tree = <Tree className="vg-check-tree" contents={build(shown)} onNodeExpand={(n) => fold(String(n.id), true)} onNodeCollapse={(n) => fold(String(n.id), false)} />;
  if (!tools) return tree;
  return (
    <div className="vg-check-tree-tools">
      <div className="vg-check-tree-bar">
        <InputGroup leftIcon="search" placeholder={t`搜索`} value={search} onValueChange={setSearch} small className="vg-check-tree-search" />
        <ButtonGroup variant="minimal">
          <Button size="small" text={t`展开全部`} onClick={() => setClosed(new Set())} />
          <Button size="small" text={t`折叠全部`} onClick={() => setClosed(new Set(branches()))} />
          {/* Ids checked outside this tree (menus the console does not show) stay as they are. */}
          <Button size="small" text={t`全选`} onClick={() => onChange(new Set([...checked, ...index.byId.keys()]))} />
          <Button size="small" text={t`全不选`} onClick={() => onChange(new Set([...checked].filter((id) => !index.byId.has(id))))} />
        </ButtonGroup>
      </div>
      {tree}
    </div>
  );
}
