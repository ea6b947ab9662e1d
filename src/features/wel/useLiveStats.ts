import { useEffect, useRef, useState } from 'react';
import { NEVER, type Observable } from 'rxjs';
import { liveStats, type StatsState, statsTransport } from '../../../streams/statistics';
import { useLiveSocket } from '../../app/liveSocket';

/** What a statistics screen renders: the latest figures (kept while newer ones load), whether they are loading or stale. */
export interface LiveFigures<T> {
  data?: T;
  loading: boolean;
  /** The last load failed: the figures shown are older. */
  stale: boolean;
}

const figuresOf = <T>(state: StatsState<T>, shown: T | undefined): LiveFigures<T> =>
  state.status === 'ready' ? { data: state.data, loading: false, stale: false } : { data: state.status === 'error' ? (state.data ?? shown) : shown, loading: state.status === 'loading', stale: state.status === 'error' };

/**
 * Figures kept live over the console's socket (streams/statistics.ts): loaded at once, after every burst of
 * `stats.changed`, after a reconnect and by the poll. A new `scope` (a project or range picked) starts again and
 * keeps showing the old figures until the new ones arrive. `refresh$` loads at once (a stable observable); nothing
 * loads until `enabled`.
 */
export function useLiveStats<T>(load: () => Promise<T>, scope: string, refresh$: Observable<unknown> = NEVER, enabled = true): LiveFigures<T> {
  const socket = useLiveSocket();
  const [figures, setFigures] = useState<LiveFigures<T>>({ loading: true, stale: false });
  const current = useRef(load);
  current.current = load;
  useEffect(() => {
    if (!socket || !enabled) return;
    const subscription = liveStats(statsTransport(socket), () => current.current(), refresh$).subscribe((state) => setFigures((shown) => figuresOf(state, shown.data)));
    return () => subscription.unsubscribe();
  }, [socket, scope, refresh$, enabled]);
  return figures;
}
