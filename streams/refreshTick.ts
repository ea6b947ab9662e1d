import { interval, map, type Observable, type SchedulerLike, asyncScheduler } from 'rxjs';
import type { TickEvent } from '../machines/session';

export const REFRESH_CHECK_MS = 10_000;

/** The token-refresh check: a session.tick every 10000 ms, stamped with the scheduler's clock. */
export function refreshTicks(scheduler: SchedulerLike = asyncScheduler): Observable<TickEvent> {
  return interval(REFRESH_CHECK_MS, scheduler).pipe(map(() => ({ type: 'session.tick' as const, at: scheduler.now() })));
}
