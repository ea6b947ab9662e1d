import type { Platform } from '../platform';
import type { Workflow } from './service';

/**
 * Fires the timers instances wait on (escalating boundary timers, timer catch events) when the platform's clock says
 * they are due. Their due times are rows (wf_timer), so a restart — or kill -9 — loses none: the scheduler reads the
 * earliest at start and sleeps until then, at most `pollMs` (another process may have added an earlier one).
 */
export class FlowTimers {
  private timer: NodeJS.Timeout | undefined;
  private firing: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly platform: Platform,
    private readonly workflow: Workflow,
    private readonly pollMs = 30_000,
  ) {
    workflow.onStep(() => this.arm());
  }

  start(): void {
    this.stopped = false;
    this.arm();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.firing;
  }

  /** Fires every timer due now, instance by instance; returns how many instances moved. One run at a time. */
  fireDue(): Promise<number> {
    this.firing ??= this.fireAll().finally(() => {
      this.firing = undefined;
      this.arm();
    });
    return this.firing;
  }

  private async fireAll(): Promise<number> {
    let moved = 0;
    for (;;) {
      const now = this.workflow.clock.now();
      // Background work: the timers of every tenant's instances; each step writes its own instance's tenant.
      const due = await this.platform.db.selectFrom('wf_timer').select(['instanceId', 'executionId']).where('dueAt', '<=', now).orderBy('dueAt').limit(200).execute();
      if (due.length === 0) return moved;
      const byInstance = new Map<string, string[]>();
      for (const timer of due) byInstance.set(timer.instanceId, [...(byInstance.get(timer.instanceId) ?? []), timer.executionId]);
      for (const [instanceId, executionIds] of byInstance) {
        let outcome: unknown;
        try {
          outcome = await this.workflow.fire(instanceId, executionIds);
        } catch (error) {
          this.platform.logs.error('workflow.timer', error, instanceId);
        }
        if (outcome) moved++;
        // A timer whose instance ended or failed must not fall due for ever (a fired one the step replaced already).
        else await this.platform.db.deleteFrom('wf_timer').where('instanceId', '=', instanceId).where('executionId', 'in', executionIds).where('dueAt', '<=', now).execute();
      }
      if (this.stopped) return moved;
    }
  }

  /** Sleeps until the earliest due timer (or the poll), coalescing the calls of a burst of steps. */
  private arm(): void {
    if (this.stopped || this.firing) return;
    clearTimeout(this.timer);
    // A wake still reading when the server closes finds the database gone: nothing to tell then.
    this.timer = setTimeout(() => void this.wake().catch((error: unknown) => this.stopped || this.platform.logs.error('workflow.timer', error)), 0);
    this.timer.unref();
  }

  private async wake(): Promise<void> {
    if (this.stopped) return;
    const next = await this.platform.db.selectFrom('wf_timer').select((eb) => eb.fn.min('dueAt').as('dueAt')).executeTakeFirst();
    const dueAt = next?.dueAt === null || next?.dueAt === undefined ? undefined : Number(next.dueAt);
    const wait = dueAt === undefined ? this.pollMs : Math.min(this.pollMs, Math.max(0, dueAt - this.workflow.clock.now()));
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fireDue(), wait);
    this.timer.unref();
  }
}
