import type { Row } from '../../../db/database';

export type TreeNode = Row & { children: TreeNode[]; hasChildren: boolean };

/**
 * Nests rows by parent: a row whose parent is not among the rows becomes a root. Order within a level is the
 * order of the input.
 */
export function toTree(rows: readonly Row[], idKey = 'id', parentKey = 'parentId'): TreeNode[] {
  const nodes = new Map<unknown, TreeNode>();
  for (const row of rows) nodes.set(row[idKey], { ...row, children: [], hasChildren: false });
  const roots: TreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = nodes.get(node[parentKey]);
    if (parent && parent !== node) {
      parent.children.push(node);
      parent.hasChildren = true;
    } else {
      roots.push(node);
    }
  }
  return roots;
}
