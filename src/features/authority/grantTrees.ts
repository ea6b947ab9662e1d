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

/** A node of menu/grant-tree: a menu (category 1) or a button (2). */
export interface MenuNode {
  id: string;
  title: string;
  code?: string;
  path?: string | null;
  category?: number;
  children?: MenuNode[];
}

/** How the console names menus: its title in the current language, and whether the console has the menu's screen. */
export interface MenuLabels {
  title(menu: MenuNode): string;
  hasScreen(menu: MenuNode): boolean;
}

const isButton = (node: MenuNode) => node.category === 2;

/**
 * The menus the console shows, titled in its language: a menu stays when the console has its screen or when a menu
 * below it stays; buttons stay with their menu. Others are left out of the grant dialog — what a role holds of them
 * is kept as it is.
 */
export function consoleMenus(nodes: readonly MenuNode[], labels: MenuLabels): TreeOption[] {
  return nodes.flatMap((node): TreeOption[] => {
    if (isButton(node)) return [{ id: String(node.id), title: labels.title(node) }];
    const children = consoleMenus(node.children ?? [], labels);
    const buttons = new Set((node.children ?? []).filter(isButton).map((button) => String(button.id)));
    if (!labels.hasScreen(node) && children.every((child) => buttons.has(child.id))) return [];
    return [{ id: String(node.id), title: labels.title(node), children: children.length ? children : undefined }];
  });
}
