import { REGION_ROOT } from '../../../resources/system/region';
import { type Envelope, http } from '../../api/client';
import type { LazyOption, Widget } from '../../crud/types';

interface RegionNode {
  id: string;
  title: string;
  hasChildren?: boolean;
}

/** One level of the region tree (GET region/lazy-tree, a lookup every signed-in user may call). */
export async function regionLevel(parent: string): Promise<LazyOption[]> {
  const { data } = await http.get<Envelope<RegionNode[]>>('api/blade-system/region/lazy-tree', { searchParams: { parentCode: parent || REGION_ROOT } });
  return (data ?? []).map((n) => ({ id: String(n.id), title: String(n.title), hasChildren: n.hasChildren !== false }));
}

/**
 * A stored code's name, found level by level down the codes it starts with (33 → 3301 → 330102): region/detail
 * is the region menu's, which a tenant's users do not hold. Undefined when no level has it.
 */
export async function regionTitle(code: string): Promise<string | undefined> {
  let level = await regionLevel('');
  for (let depth = 0; depth < 6; depth++) {
    const found = level.find((n) => n.id === code);
    if (found) return found.title;
    const parent = level.find((n) => n.hasChildren && code.startsWith(n.id));
    if (!parent) return undefined;
    level = await regionLevel(parent.id);
  }
  return undefined;
}

/** A field holding a region code, picked by name in the lazy region tree. */
export const regionPicker: Widget = { type: 'lazyTree', children: regionLevel, titleOf: regionTitle };
