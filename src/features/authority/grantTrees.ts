import type { TreeOption } from '../../crud/types';

/** A tree as the grant calls answer it (BladeX TreeNode: id, title, children) in the console's shape. */
export function normaliseTree(nodes: unknown): TreeOption[] {
  if (!Array.isArray(nodes)) return [];
  return nodes.map((raw: Record<string, unknown>) => ({
    id: String(raw.id ?? raw.key),
    title: String(raw.title ?? raw.name ?? ''),
    children: Array.isArray(raw.children) && raw.children.length ? normaliseTree(raw.children) : undefined,
  }));
}
