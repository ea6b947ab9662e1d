import { type PushTrigger, SEND_STATE } from '../../resources/iot/push';
import type { StoredReading } from '../ingest/types';
import type { Platform } from '../platform';
import type { Binding, BindingBook } from './bindings';
import { describeTarget, excerpt, messagesOf, type Outgoing, type PushReading, testMessage } from './format';
import { type Delivery, Lane, type LaneHost, type RetryPolicy } from './lane';
import type { SendLog } from './sendlog';
import { endpointOf, type Target } from './target';
import { DeliveryError, probe, type Sender } from './transport';

/**
 * Forwards stored readings to the targets their projects are bound to (docs/push.md). The `readings` handler only
 * appends to an inbox; a worker hands each reading to the lane of every active binding of its project, and each lane
 * sends on its own, so a slow or dead target never holds up ingestion or another target. Manual pushes and
 * connection tests use the same transports and the same log.
 */

/** Most readings waiting in the inbox before the oldest batches are dropped (the worker normally keeps it empty). */
const MAX_INBOX = 200_000;
/** A kept MQTT client nothing was sent through for this long is closed. */
const LINK_IDLE_MS = 120_000;

export interface PushSummary {
  /** Readings read from the store. */
  readings: number;
  /** Readings delivered. */
  pushed: number;
  messages: number;
  /** Readings not delivered because a message failed (the push stops there). */
  failed: number;
  error?: string;
}

export interface TestResult {
  success: boolean;
  message: string;
  target: string;
  httpStatus: number | null;
  durationMs: number;
}

export class Forwarder implements LaneHost {
  retry: RetryPolicy = { attempts: 10, baseMs: 1000, maxMs: 60_000 };
  maxQueue = 10_000;

  private readonly inbox: Array<readonly StoredReading[]> = [];
  private inboxSize = 0;
  private draining?: Promise<void>;
  private readonly lanes = new Map<string, Lane>();
  private readonly manual = new Set<string>();
  private stopped = false;
  private readonly pruner: NodeJS.Timeout;

  constructor(
    private readonly platform: Platform,
    readonly book: BindingBook,
    readonly sender: Sender,
    readonly log: SendLog,
  ) {
    this.pruner = setInterval(() => this.sender.pruneIdle(LINK_IDLE_MS), LINK_IDLE_MS / 2);
    this.pruner.unref();
  }

  /** The `readings` handler: returns at once. */
  accept(batch: readonly StoredReading[]): void {
    if (this.stopped || batch.length === 0) return;
    this.inbox.push(batch);
    this.inboxSize += batch.length;
    while (this.inboxSize > MAX_INBOX && this.inbox.length > 1) {
      const lost = this.inbox.shift() ?? [];
      this.inboxSize -= lost.length;
      this.fail(new Error(`推送待处理数据过多,丢弃 ${lost.length} 条`));
    }
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  private async drain(): Promise<void> {
    for (let batch = this.inbox.shift(); batch; batch = this.inbox.shift()) {
      this.inboxSize -= batch.length;
      try {
        await this.route(batch);
      } catch (error) {
        this.fail(error);
      }
    }
  }

  /** Hands each reading to the lanes of its project's active bindings that include its device. */
  private async route(batch: readonly StoredReading[]): Promise<void> {
    const byProject = new Map<string, StoredReading[]>();
    for (const r of batch) {
      if (!r.projectId) continue;
      let list = byProject.get(r.projectId);
      if (!list) byProject.set(r.projectId, (list = []));
      list.push(r);
    }
    for (const [projectId, readings] of byProject) {
      for (const binding of await this.book.forProject(projectId)) {
        if (binding.inactive || binding.tenantId !== readings[0].tenantId) continue;
        const mine = binding.deviceIds ? readings.filter((r) => binding.deviceIds?.has(r.deviceId)) : readings;
        if (mine.length) this.laneOf(binding).add(binding, mine);
      }
    }
  }

  private laneOf(binding: Binding): Lane {
    let lane = this.lanes.get(binding.id);
    if (!lane) {
      lane = new Lane(binding.id, binding.projectId, this, binding);
      this.lanes.set(binding.id, lane);
    }
    return lane;
  }

  /** Readings waiting in a binding's lane (tests and the bound on memory). */
  queued(bindingId: string): number {
    return this.lanes.get(bindingId)?.size ?? 0;
  }

  // --- LaneHost -------------------------------------------------------------------------------------------------

  async current(projectId: string, bindingId: string): Promise<Binding | undefined> {
    const binding = await this.book.byId(projectId, bindingId);
    return binding && !binding.inactive ? binding : undefined;
  }

  /** Sends the messages in order, stopping at the first failure. Never throws. */
  async deliver(binding: Pick<Binding, 'target'>, messages: readonly Outgoing[]): Promise<Delivery> {
    const started = Date.now();
    let sent = 0;
    let readings = 0;
    let httpStatus: number | undefined;
    for (const message of messages) {
      try {
        httpStatus = await this.sender.deliver(binding.target, message);
      } catch (error) {
        const e = error instanceof DeliveryError ? error : new DeliveryError(error instanceof Error ? error.message : String(error), true);
        const unsent = messages.slice(sent).reduce((n, m) => n + m.readings, 0);
        return { ok: false, sent, readings, unsent, messages, retry: e.retry, error: e.message, httpStatus: e.status, durationMs: Date.now() - started };
      }
      sent += 1;
      readings += message.readings;
    }
    return { ok: true, sent, readings, unsent: 0, messages, retry: false, httpStatus, durationMs: Date.now() - started };
  }

  record(binding: Binding, delivery: Delivery, trigger: PushTrigger, attempt: number, note?: string): void {
    const { target } = binding;
    this.log.record({
      tenantId: binding.tenantId,
      mqttParamId: target.id,
      pushType: target.pushType,
      bindingId: binding.id,
      projectId: binding.projectId,
      trigger,
      attempt,
      state: delivery.ok ? SEND_STATE.success : SEND_STATE.failed,
      target: describeTarget(target, delivery.messages, endpointOf(target)),
      readings: delivery.ok ? delivery.readings : delivery.readings + delivery.unsent,
      messages: delivery.messages.length,
      httpStatus: delivery.httpStatus,
      error: delivery.error ? (note ? `${delivery.error} (${note})` : delivery.error) : undefined,
      durationMs: delivery.durationMs,
      payload: excerpt(delivery.messages[0]?.body),
    });
  }

  dropped(binding: Binding, count: number): void {
    this.log.record({
      tenantId: binding.tenantId,
      mqttParamId: binding.target.id,
      pushType: binding.target.pushType,
      bindingId: binding.id,
      projectId: binding.projectId,
      trigger: 'realtime',
      attempt: 0,
      state: SEND_STATE.dropped,
      target: endpointOf(binding.target),
      readings: count,
      messages: 0,
      error: `推送队列已满(上限 ${this.maxQueue} 条),丢弃最早的 ${count} 条数据`,
    });
  }

  retire(lane: Lane): void {
    if (this.lanes.get(lane.bindingId) === lane) this.lanes.delete(lane.bindingId);
  }

  fail(error: unknown): void {
    this.platform.logs.error('push', error);
  }

  // --- Manual pushes and tests -------------------------------------------------------------------------------------

  /**
   * Pushes stored readings (pages of one device at a time) in batches of the target's size, logged with trigger
   * `manual`; stops at the first failed message. One manual push per target at a time.
   */
  async pushStored(binding: Binding, pages: AsyncIterable<PushReading[]>): Promise<PushSummary> {
    const summary: PushSummary = { readings: 0, pushed: 0, messages: 0, failed: 0 };
    const send = async (readings: PushReading[]): Promise<boolean> => {
      const delivery = await this.deliver(binding, messagesOf(binding.target, binding, readings));
      this.record(binding, delivery, 'manual', 1);
      summary.pushed += delivery.readings;
      summary.messages += delivery.sent;
      if (delivery.ok) return true;
      summary.error = delivery.error;
      return false;
    };
    let buffer: PushReading[] = [];
    const size = binding.target.batchSize;
    try {
      for await (const page of pages) {
        summary.readings += page.length;
        buffer = buffer.concat(page);
        while (buffer.length >= size) if (!(await send(buffer.splice(0, size)))) return summary;
      }
      if (buffer.length) await send(buffer);
      return summary;
    } finally {
      summary.failed = summary.readings - summary.pushed;
    }
  }

  /** Runs `work` as the target's one manual push; a second one at the same time is refused with `busy`. */
  async exclusive<T>(targetId: string, busy: () => Error, work: () => Promise<T>): Promise<T> {
    if (this.manual.has(targetId)) throw busy();
    this.manual.add(targetId);
    try {
      return await work();
    } finally {
      this.manual.delete(targetId);
    }
  }

  /** Connects to the target, sends a test message, reports what happened; logged (trigger `test`) for a saved target. */
  async test(target: Target, saved: boolean): Promise<TestResult> {
    const message = testMessage(target);
    const started = Date.now();
    const where = describeTarget(target, [message], endpointOf(target));
    let httpStatus: number | undefined;
    let error: string | undefined;
    try {
      httpStatus = await probe(target, message, this.sender.guard);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      httpStatus = e instanceof DeliveryError ? e.status : undefined;
    }
    const durationMs = Date.now() - started;
    if (saved) {
      this.log.record({
        tenantId: target.tenantId,
        mqttParamId: target.id,
        pushType: target.pushType,
        trigger: 'test',
        attempt: 1,
        state: error ? SEND_STATE.failed : SEND_STATE.success,
        target: where,
        readings: 0,
        messages: 1,
        httpStatus,
        error,
        durationMs,
        payload: excerpt(message.body),
      });
    }
    return { success: !error, message: error ?? '连接成功,测试消息已发送', target: where, httpStatus: httpStatus ?? null, durationMs };
  }

  // --- Life cycle ------------------------------------------------------------------------------------------------

  /** Resolves when the inbox is empty, no batch is being sent and the log is written (timers may still be armed). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.draining) await this.draining;
      const lanes = [...this.lanes.values()];
      await Promise.all(lanes.map((lane) => lane.idle()));
      if (!this.draining && this.inbox.length === 0) break;
    }
    await this.log.flush();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pruner);
    if (this.draining) await this.draining;
    const lanes = [...this.lanes.values()];
    this.lanes.clear();
    for (const lane of lanes) lane.halt();
    // Closing the transports ends the sends in flight, so stopping never waits for a dead target's timeout.
    await this.sender.close();
    await Promise.all(lanes.map((lane) => lane.idle()));
    await this.log.flush();
  }
}
