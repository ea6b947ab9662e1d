import { useEffect, useState, useSyncExternalStore } from 'react';
import { fromEvent, map } from 'rxjs';
import { type Viewport, viewportChanges, viewportOf } from '../../streams/viewport';

let current: Viewport = viewportOf(typeof window === 'undefined' ? 1920 : window.innerWidth);
const listeners = new Set<() => void>();

/** Applies the root font size (width / 100) and the size class to the document; returns the viewport. */
export function useViewport(): Viewport {
  const [viewport, setViewport] = useState(current);
  useEffect(() => {
    const widths = fromEvent(window, 'resize').pipe(map(() => window.innerWidth));
    const subscription = viewportChanges(widths, window.innerWidth).subscribe((next) => {
      current = next;
      document.documentElement.style.fontSize = `${next.rootFontSize}px`;
      document.documentElement.dataset.screen = String(next.sizeClass);
      setViewport(next);
      for (const listener of listeners) listener();
    });
    return () => subscription.unsubscribe();
  }, []);
  return viewport;
}

export const currentViewport = (): Viewport => current;

/** Below the small breakpoint (size class 0, under 768 px): the sidebar is a drawer and lists are cards. */
export const isNarrow = (viewport: Viewport = current): boolean => viewport.sizeClass === 0;

/** Whether the screen is narrow, following the viewport the app applies (useViewport, mounted once by the app). */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => isNarrow(),
  );
}
