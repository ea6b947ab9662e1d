import { sql } from 'kysely';
import { LAST_STATE, SEND_STATE, type PushTrigger } from '../../resources/iot/push';
import type { Row } from '../db/database';
import { nextId } from '../ids';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import { slices } from '../db/slices';

/**
 * The push log (wit_api_send_log) and each binding's last outcome, buffered and written in batches so that a busy
 * forwarder costs the database one insert per half second, not one per attempt.
 */

export interface AttemptRecord {
  tenantId: string;
  mqttParamId: string;
  pushType: number;
  bindingId?: string;
  projectId?: string;
  trigger: PushTrigger;
  attempt: number;
  state: (typeof SEND_STATE)[keyof typeof SEND_STATE];
  target: string;
  readings: number;
  messages: number;
  httpStatus?: number;
  error?: string;
  durationMs?: number;
  payload?: string | null;
}

interface BindingState {
  time: string;
  state: number;
  error: string | null;
  delivered: number;
}

const FLUSH_MS = 500;
const BATCH = 200;

export class SendLog {
  private rows: Row[] = [];
  private readonly states = new Map<string, BindingState>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly platform: Platform) {}

  record(entry: AttemptRecord): void {
    const now = formatDateTime();
    this.rows.push({
      id: nextId(),
      tenantId: entry.tenantId,
      mqttParamId: entry.mqttParamId,
      tenantProjectId: entry.bindingId ?? null,
      projectId: entry.projectId ?? null,
      pushType: entry.pushType,
      trigger: entry.trigger,
      target: entry.target.slice(0, 1000),
      readings: entry.readings,
      messages: entry.messages,
      state: entry.state,
      attempt: entry.attempt,
      httpStatus: entry.httpStatus ?? null,
      error: entry.error?.slice(0, 2000) ?? null,
      durationMs: entry.durationMs ?? null,
      payload: entry.payload ?? null,
      createTime: now,
      updateTime: now,
      status: 1,
      isDeleted: 0,
    });
    if (entry.bindingId && entry.state !== SEND_STATE.dropped) this.noteBinding(entry.bindingId, entry, now);
    if (this.rows.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  private noteBinding(id: string, entry: AttemptRecord, time: string): void {
    const ok = entry.state === SEND_STATE.success;
    const known = this.states.get(id);
    this.states.set(id, {
      time,
      state: ok ? LAST_STATE.success : LAST_STATE.failed,
      error: ok ? null : (entry.error?.slice(0, 2000) ?? null),
      delivered: (known?.delivered ?? 0) + (ok ? entry.readings : 0),
    });
  }

  /** Writes everything recorded so far; resolves when it is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.rows;
    const states = [...this.states];
    this.rows = [];
    this.states.clear();
    if (rows.length === 0 && states.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() => this.write(rows, states));
    return this.flushing;
  }

  private async write(rows: Row[], states: Array<[string, BindingState]>): Promise<void> {
    const { db, events } = this.platform;
    try {
      for (const slice of slices(rows, BATCH)) await db.insertInto('wit_api_send_log').values(slice).execute();
      // The binding's own columns only: no change is announced, so the binding caches stay as they are.
      for (const [id, s] of states) {
        await db
          .updateTable('wit_tenant_project')
          .set({ lastPushTime: s.time, lastState: s.state, lastError: s.error, pushCount: sql`push_count + ${s.delivered}` })
          .where('id', '=', id)
          .execute();
      }
    } catch (error) {
      this.platform.logs.error('push', error, '推送日志写入失败');
    }
    if (rows.length) events.emit('changed', 'wit_api_send_log');
  }
}
