import type { PushTrigger } from '../../resources/iot/push';
import type { Binding } from './bindings';
import { messagesOf, type Outgoing, type PushReading } from './format';

/**
 * The live queue of one binding (docs/push.md "Batching and retries"). Readings wait until a batch is full or the
 * target's flush interval has passed; one batch is in flight at a time. A failed batch is retried with growing waits
 * (only its unsent messages), while new readings queue up behind it. The queue is bounded: when full, the oldest
 * readings are dropped and the drop is logged. Nothing here ever blocks the caller of `add`.
 */

export interface RetryPolicy {
  /** Attempts of one batch, the first included. */
  attempts: number;
  /** Wait before the first retry; each later wait doubles, up to maxMs. */
  baseMs: number;
  maxMs: number;
}

/** The outcome of sending a batch's messages in order (stopping at the first failure). */
export interface Delivery {
  ok: boolean;
  /** Messages sent before the failure (all of them when ok). */
  sent: number;
  /** Readings in the sent messages. */
  readings: number;
  /** Readings in the messages not sent. */
  unsent: number;
  /** The messages of the attempt. */
  messages: readonly Outgoing[];
  retry: boolean;
  error?: string;
  httpStatus?: number;
  durationMs: number;
}

/** What a lane needs from the forwarder. */
export interface LaneHost {
  readonly retry: RetryPolicy;
  readonly maxQueue: number;
  /** The binding as it is now; undefined when it no longer pushes. */
  current(projectId: string, bindingId: string): Promise<Binding | undefined>;
  deliver(binding: Binding, messages: readonly Outgoing[]): Promise<Delivery>;
  record(binding: Binding, delivery: Delivery, trigger: PushTrigger, attempt: number, note?: string): void;
  dropped(binding: Binding, count: number): void;
  retire(lane: Lane): void;
  fail(error: unknown): void;
}

export class Lane {
  private queue: PushReading[] = [];
  private pending?: { messages: Outgoing[]; attempt: number };
  private dropped = 0;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private closed = false;
  private batchSize: number;
  private flushMs: number;

  constructor(
    readonly bindingId: string,
    readonly projectId: string,
    private readonly host: LaneHost,
    binding: Binding,
  ) {
    this.batchSize = binding.target.batchSize;
    this.flushMs = binding.target.flushInterval;
  }

  /** Readings waiting or in flight. */
  get size(): number {
    return this.queue.length + (this.pending?.messages.reduce((n, m) => n + m.readings, 0) ?? 0);
  }

  add(binding: Binding, readings: readonly PushReading[]): void {
    if (this.closed) return;
    this.batchSize = binding.target.batchSize;
    this.flushMs = binding.target.flushInterval;
    for (const r of readings) this.queue.push(r);
    const over = this.queue.length - this.host.maxQueue;
    if (over > 0) {
      this.queue.splice(0, over);
      this.dropped += over;
    }
    this.schedule();
  }

  /** Resolves when no batch is being sent. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops the lane from sending anything more (a batch in flight finishes); what waits is dropped with it. */
  halt(): void {
    this.closed = true;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.cancelTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, ms);
    this.timer.unref();
  }

  private schedule(): void {
    // A batch in flight waits for its retry timer; new readings wait behind it.
    if (this.running || this.closed || this.pending || this.queue.length === 0) return;
    if (this.queue.length >= this.batchSize) {
      this.cancelTimer();
      this.run();
    } else if (!this.timer) {
      this.arm(this.flushMs);
    }
  }

  private run(): void {
    if (this.running || this.closed) return;
    this.running = this.flush()
      .catch((error: unknown) => {
        this.host.fail(error);
        if (this.pending && !this.timer) this.arm(this.host.retry.maxMs);
      })
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
  }

  private async flush(): Promise<void> {
    const binding = await this.host.current(this.projectId, this.bindingId);
    if (!binding) {
      // Disabled, unbound or removed: what waits is not sent.
      this.queue = [];
      this.pending = undefined;
      this.closed = true;
      this.host.retire(this);
      return;
    }
    if (this.dropped > 0) {
      this.host.dropped(binding, this.dropped);
      this.dropped = 0;
    }
    if (!this.pending) {
      const readings = this.queue.splice(0, this.batchSize);
      if (readings.length === 0) return;
      this.pending = { messages: messagesOf(binding.target, binding, readings), attempt: 0 };
    }
    const pending = this.pending;
    pending.attempt += 1;
    const trigger: PushTrigger = pending.attempt === 1 ? 'realtime' : 'retry';
    const delivery = await this.host.deliver(binding, pending.messages);
    pending.messages = pending.messages.slice(delivery.sent);
    if (delivery.ok) {
      this.host.record(binding, delivery, trigger, pending.attempt);
      this.pending = undefined;
      return;
    }
    const { attempts, baseMs, maxMs } = this.host.retry;
    if (!delivery.retry || pending.attempt >= attempts || this.closed) {
      this.host.record(binding, delivery, trigger, pending.attempt, delivery.retry ? `已尝试 ${pending.attempt} 次,放弃该批数据` : '目标拒绝,不再重试');
      this.pending = undefined;
      return;
    }
    const wait = Math.min(maxMs, baseMs * 2 ** (pending.attempt - 1));
    this.host.record(binding, delivery, trigger, pending.attempt, `${wait} 毫秒后重试`);
    this.arm(wait);
  }
}
