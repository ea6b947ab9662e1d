/**
 * Trees as BladeX serialises them (TreeNode): `title` shown, `key` and `value` the id, `hasChildren` on every node,
 * `children` only on branches. Every tree call of the server builds its nodes here.
 */

export interface Linked {
  id: string;
  parentId: string;
}

export type Branch<T> = T & { children?: Array<Branch<T>>; hasChildren: boolean };

export interface TreeNode extends Linked {
  title: string;
  key: string;
  value: string;
  hasChildren?: boolean;
  children?: TreeNode[];
  [extra: string]: unknown;
}

export function treeNode(id: string, parentId: string, title: string, extra: Record<string, unknown> = {}): TreeNode {
  return { ...extra, id, parentId, title, key: id, value: id };
}

/**
 * Merges a flat list into a forest, keeping the list's order among siblings. A node whose parent is not in the
 * list becomes a root (BladeX ForestNodeMerger), so a partial list (granted menus, a scoped page) still shows.
 */
export function forest<T extends Linked>(nodes: readonly T[]): Array<Branch<T>> {
  const byId = new Map<string, Branch<T>>();
  for (const node of nodes) byId.set(node.id, { ...node, hasChildren: false });
  const roots: Array<Branch<T>> = [];
  for (const node of byId.values()) {
    const parent = node.parentId !== node.id ? byId.get(node.parentId) : undefined;
    if (parent) {
      (parent.children ??= []).push(node);
      parent.hasChildren = true;
    } else {
      roots.push(node);
    }
  }
  return roots;
}

/** Hangs children under their parents by parentId (two kinds of rows, e.g. customers and their projects), in place. */
export function attach<P extends Linked & { children?: unknown[]; hasChildren?: boolean }>(parents: P[], children: readonly Linked[]): P[] {
  const byId = new Map(parents.map((p) => [p.id, p]));
  for (const child of children) {
    const parent = byId.get(child.parentId);
    if (!parent) continue;
    (parent.children ??= []).push(child);
    parent.hasChildren = true;
  }
  return parents;
}

/** The ids of `ids` plus all their ancestors, following `parentOf`. */
export function withAncestors(ids: Iterable<string>, parentOf: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  for (const start of ids) {
    let current: string | undefined = start;
    while (current !== undefined && !out.has(current)) {
      out.add(current);
      current = parentOf.get(current);
    }
  }
  return out;
}

/** The ids of `root` and everything below it. */
export function subtree(root: string, nodes: readonly Linked[]): Set<string> {
  const children = new Map<string, string[]>();
  for (const node of nodes) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node.id]);
  const out = new Set<string>();
  const stack = [root];
  while (stack.length) {
    const id = stack.pop() as string;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}
