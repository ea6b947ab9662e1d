import { useEffect, useState } from 'react';
import { fromEvent, map } from 'rxjs';
import { type Viewport, viewportChanges, viewportOf } from '../../streams/viewport';

let current: Viewport = viewportOf(typeof window === 'undefined' ? 1920 : window.innerWidth);

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
    });
    return () => subscription.unsubscribe();
  }, []);
  return viewport;
}

export const currentViewport = (): Viewport => current;
