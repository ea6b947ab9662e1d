import { asyncScheduler, debounceTime, distinctUntilChanged, map, type Observable, type SchedulerLike, startWith } from 'rxjs';

export const RESIZE_DEBOUNCE_MS = 300;

/** Screen size class by width: >=1200 is 3, >=992 is 2, >=768 is 1, else 0. */
export function sizeClassOf(width: number): 0 | 1 | 2 | 3 {
  if (width >= 1200) return 3;
  if (width >= 992) return 2;
  if (width >= 768) return 1;
  return 0;
}

/** The root font size: the viewport width divided by 100, in px. */
export const rootFontSizeOf = (width: number): number => width / 100;

export interface Viewport {
  width: number;
  sizeClass: 0 | 1 | 2 | 3;
  rootFontSize: number;
}

export const viewportOf = (width: number): Viewport => ({ width, sizeClass: sizeClassOf(width), rootFontSize: rootFontSizeOf(width) });

/** Viewport changes from a stream of widths (resize events), debounced by 300 ms, starting with the current width. */
export function viewportChanges(widths: Observable<number>, initial: number, scheduler: SchedulerLike = asyncScheduler): Observable<Viewport> {
  return widths.pipe(
    debounceTime(RESIZE_DEBOUNCE_MS, scheduler),
    startWith(initial),
    distinctUntilChanged(),
    map(viewportOf),
  );
}
