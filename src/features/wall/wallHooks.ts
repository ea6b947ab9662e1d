import { useEffect, useState, useSyncExternalStore } from 'react';
import { rotation } from '../../../streams/screen';
import type { ScreenState } from '../../../streams/screenState';
import { wallScale } from './format';
import type { WallRuntime } from './wallRuntime';

/** The wall screen's React side of its runtime (wallRuntime.ts), and the small clocks of the screen. */

export function useWallState(runtime: WallRuntime): ScreenState {
  return useSyncExternalStore(runtime.subscribe, runtime.state);
}

/** One ticker for the whole screen: every age and the clock re-render with it, nothing else does. */
const ticker = (() => {
  const listeners = new Set<() => void>();
  let now = Date.now();
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      timer ??= setInterval(() => {
        now = Date.now();
        for (const l of listeners) l();
      }, 1000);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== undefined) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    now: () => now,
  };
})();

/** The time, updated every second. */
export function useNow(): number {
  return useSyncExternalStore(ticker.subscribe, ticker.now);
}

/** Which of `count` projects is shown (streams/screen.ts rotation); the first again when the list or the pace changes. */
export function useRotation(count: number, seconds: number): number {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const subscription = rotation(count, seconds).subscribe(setIndex);
    return () => subscription.unsubscribe();
  }, [count, seconds]);
  return Math.min(index, Math.max(0, count - 1));
}

/** The screen's scale (format.ts wallScale), following the window's size. */
export function useWallScale(): number {
  const [scale, setScale] = useState(() => wallScale(window.innerWidth, window.innerHeight));
  useEffect(() => {
    const resize = () => setScale(wallScale(window.innerWidth, window.innerHeight));
    window.addEventListener('resize', resize);
    return () => window.removeEventListener('resize', resize);
  }, []);
  return scale;
}

/** A project's image as an object URL (wallRuntime.ts keeps them): undefined while loading, null without one. */
export function useProjectImage(runtime: WallRuntime, path: string | null): string | null | undefined {
  const [url, setUrl] = useState<{ path: string | null; url: string | null } | undefined>();
  useEffect(() => {
    let gone = false;
    if (!path) setUrl({ path, url: null });
    else void runtime.image(path).then((shown) => !gone && setUrl({ path, url: shown }));
    return () => {
      gone = true;
    };
  }, [runtime, path]);
  return url && url.path === path ? url.url : undefined;
}
