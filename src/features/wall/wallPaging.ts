import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { LiveChannel } from '../../../streams/screenChannels';
import { rotation } from '../../../streams/screen';
import type { WallRuntime } from './wallRuntime';

/**
 * What a panel of the wall screen shows of many tiles: only those that fit, a page at a time, the next page every
 * PAGE_SECONDS (docs/console-screens.md "The wall screen"); and the live values each tile reads for itself.
 */

/** How long a page of tiles stays on the screen: long enough to read a few values from across the room. */
export const PAGE_SECONDS = 10;
/** Tiles shown before the panel was measured. */
const FIRST_PAGE = 24;

/** How many tiles of a CSS grid fit its box: its columns times the rows of its first tile's height. */
function fitting(grid: HTMLElement): number | undefined {
  const tile = grid.firstElementChild as HTMLElement | null;
  if (!tile || tile.offsetHeight === 0) return undefined;
  const style = getComputedStyle(grid);
  const columns = style.gridTemplateColumns.split(' ').filter(Boolean).length || 1;
  const gap = Number.parseFloat(style.rowGap) || 0;
  const rows = Math.max(1, Math.floor((grid.clientHeight + gap) / (tile.offsetHeight + gap)));
  return columns * rows;
}

export interface Paged<T> {
  ref: RefObject<HTMLDivElement | null>;
  shown: readonly T[];
  /** 1-based page shown, and how many there are. */
  page: number;
  pages: number;
}

/** The page of `items` shown in the grid of `ref`, measured again when the grid's size changes. */
export function usePaged<T>(items: readonly T[]): Paged<T> {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState(FIRST_PAGE);
  const pages = Math.max(1, Math.ceil(items.length / size));
  const [index, setIndex] = useState(0);
  // Measured once the grid has tiles (an empty panel shows a message instead), and on every resize.
  const filled = items.length > 0;
  useLayoutEffect(() => {
    const grid = ref.current;
    if (!grid || !filled) return;
    const measure = () => setSize((current) => fitting(grid) ?? current);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(grid);
    return () => observer.disconnect();
  }, [filled]);
  useEffect(() => {
    const subscription = rotation(pages, PAGE_SECONDS).subscribe(setIndex);
    return () => subscription.unsubscribe();
  }, [pages]);
  const page = Math.min(index, pages - 1);
  return { ref, shown: items.slice(page * size, (page + 1) * size), page: page + 1, pages };
}

/** A channel's live value (streams/screenChannels.ts): the tile renders again when it changes, nothing else does. */
export function useChannel(runtime: WallRuntime, deviceId: string, pointKey: string): LiveChannel {
  const { channels } = runtime;
  const subscribe = useCallback((listener: () => void) => channels.subscribeChannel(deviceId, pointKey, listener), [channels, deviceId, pointKey]);
  useSyncExternalStore(subscribe, () => channels.channel(deviceId, pointKey).version);
  return channels.channel(deviceId, pointKey);
}

/** A project's data points stored today, live. */
export function usePointsToday(runtime: WallRuntime, projectId: string): number {
  const { channels } = runtime;
  const subscribe = useCallback((listener: () => void) => channels.subscribeCount(projectId, listener), [channels, projectId]);
  return useSyncExternalStore(subscribe, () => channels.pointsToday(projectId));
}
