import type { ButtonRow, MenuRow } from '../api/system';

/** A menu path that is an external address. */
export const isUrl = (path: string): boolean => /^https?:\/\//i.test(path);

/** A path that contains html or starts with http opens in an iframe. */
export const isIframe = (path: string): boolean => path.includes('html') || isUrl(path);

/** Iframe route of an external page: /myiframe/urlPath?src=…&name=… (spec §2). */
export function iframePath(src: string, name: string, i18n?: string): string {
  const query = new URLSearchParams({ src, name, ...(i18n ? { i18n } : {}) });
  return `/myiframe/urlPath?${query.toString()}`;
}

/** Where a menu item leads: an iframe for html/http paths, the index suffix for top-level leaves, else its path. */
export function linkOf(menu: MenuRow, topLevel: boolean): string {
  if (isIframe(menu.path)) return iframePath(menu.path, menu.name, menu.meta?.i18n ?? menu.code);
  const leaf = !menu.children?.length;
  if (leaf && topLevel) return `${menu.path.replace(/\/$/, '')}/index`;
  return menu.path;
}

/** Type-2 menus with an http path open in a new window instead of a tab. */
export const opensWindow = (menu: MenuRow): boolean => menu.type === 2 && isUrl(menu.path);

/** The path of a screen without the index suffix: /xinde/project/index -> /xinde/project. */
export const screenKeyOf = (path: string): string => path.replace(/\/index$/, '') || '/';

export interface MenuFilter {
  /** The user's roles (role names or ids, whatever meta.roles lists). */
  roles: readonly string[];
  /** Whether the console has a screen for this menu path. */
  hasScreen: (path: string) => boolean;
}

/**
 * The menus a user sees: an item shows when its meta roles are empty or include one of the user's roles, and a
 * leaf only when the console has its screen (external pages always); parents only with visible children.
 */
export function visibleMenus(tree: readonly MenuRow[], filter: MenuFilter): MenuRow[] {
  const allowed = (menu: MenuRow) => {
    const roles = menu.meta?.roles ?? [];
    return roles.length === 0 || roles.some((role) => filter.roles.includes(role));
  };
  const sorted = [...tree].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
  const out: MenuRow[] = [];
  for (const menu of sorted) {
    if (!allowed(menu)) continue;
    if (menu.children?.length) {
      const children = visibleMenus(menu.children, filter);
      if (children.length) out.push({ ...menu, children });
    } else if (isIframe(menu.path) || filter.hasScreen(screenKeyOf(menu.path))) {
      out.push(menu);
    }
  }
  return out;
}

export interface MenuLeaf {
  menu: MenuRow;
  link: string;
}

export function leavesOf(tree: readonly MenuRow[], topLevel = true): MenuLeaf[] {
  return tree.flatMap((menu) =>
    menu.children?.length ? leavesOf(menu.children, false) : [{ menu, link: linkOf(menu, topLevel) }],
  );
}

/** Menu search (overlay and top autocomplete): leaves whose name starts with the query, ignoring case. */
export function searchMenus(leaves: readonly MenuLeaf[], query: string, labelOf: (menu: MenuRow) => string): MenuLeaf[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return leaves.filter(({ menu }) => [labelOf(menu), menu.name].some((name) => name.toLowerCase().startsWith(needle)));
}

/** The permission map: the buttons tree flattened to its leaf codes. */
export function permissionsOf(buttons: readonly ButtonRow[]): Record<string, true> {
  const map: Record<string, true> = {};
  const walk = (rows: readonly ButtonRow[]) => {
    for (const row of rows) {
      if (row.children?.length) walk(row.children);
      else if (row.code) map[row.code] = true;
    }
  };
  walk(buttons);
  return map;
}
