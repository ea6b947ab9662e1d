import type { Arrival } from './accepted';

/** How often a waiting queue is looked at: 5 ms at 2,400/s lets ~12 connections in at a time. */
const TICK_MS = 5;
/**
 * What the bucket holds at most, in time at the rate: a few ticks, so a tick that fires late (a busy event loop) loses
 * none of the rate; a bucket of one tick measured 1,830/s at 2,200.
 */
const BURST_MS = 20;
/**
 * The rate rises from SLOW_START_FROM of itself to all of it over this long from the first connection. A process just
 * started has its code cold (not yet compiled by V8's optimiser) and its caches empty: a fleet let in at the full rate
 * at once kept the event loop busy and the young generation's collections long (40-75 ms) for its first seconds, and
 * the devices already back waited behind them. From half over 2 s at 2,200/s, a reconnect storm's probe p99 was
 * 47.8-151 ms; from a quarter over 3 s at 2,400/s, 40.9-82.1 ms, lower in each of nine alternating pairs on both
 * stores, the fleet back as soon, ~2,115 connects/s against ~2,085 (bench:connections, docs/benchmarks.md
 * "Connections, forty-first session").
 */
const SLOW_START_MS = 3_000;
const SLOW_START_FROM = 0.25;
/**
 * How long a connection may wait for its turn: past it the device has given up (mqtt.js waits 30 s for its CONNACK)
 * and will come again; reading its CONNECT would only cost the broker.
 */
const MAX_WAIT_MS = 30_000;

/**
 * Lets new connections reach the broker at most `perSecond` a second, evenly (a token bucket refilled every few
 * milliseconds, holding at most 20 ms worth), as EMQX's max_conn_rate does, after a slow start (SLOW_START_MS). A
 * fleet reconnecting at once (a restart, a network back) otherwise arrives in bursts of thousands: their CONNECTs and
 * first readings filled single turns of the event loop for hundreds of milliseconds and batches of 5,000 messages, and
 * the devices already back waited ~1 s for their acknowledgements (docs/benchmarks.md "Connections, twenty-ninth
 * session"). The connections wait accepted, unread, as bare handles (accepted.ts); their CONNECT timeout starts when
 * they are let in. 0 lets every one in at once.
 */
export class Admission {
  private tokens: number;
  private last: number;
  private queue: Array<{ arrival: Arrival; at: number }> = [];
  private head = 0;
  private timer?: NodeJS.Timeout;
  /** When the first connection was offered: the slow start counts from it. */
  private firstAt?: number;
  /** Since when connections wait because the platform is behind, and how long they did so before. */
  private heldSince?: number;
  private heldBefore = 0;

  constructor(
    private readonly perSecond: number,
    private readonly admit: (arrival: Arrival) => void,
    /** The clock the bucket is refilled by (ms); tests move it instead of waiting. */
    private readonly now: () => number = () => performance.now(),
    /**
     * True while the platform is behind with what it has (ingestion's writer): nobody is let in until it catches up.
     * A device back from an outage brings the readings it kept, and let in faster than they can be stored they made
     * the group commits long and every connected device wait behind them (bench:connections).
     */
    private readonly behind: () => boolean = () => false,
    private readonly slowStartMs = SLOW_START_MS,
  ) {
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Connections accepted and waiting for their turn (the metric vigil_mqtt_connections_waiting). */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /**
   * How long connections have waited, in all, because the platform was behind rather than for the rate (ms; the metric
   * vigil_mqtt_admission_held_seconds_total): a process that holds them often after a restart is limited by its
   * ingestion, not by the rate (docs/operations.md "Sizes").
   */
  get heldMs(): number {
    return this.heldBefore + (this.heldSince === undefined ? 0 : this.now() - this.heldSince);
  }

  /** Whether connections wait for their turn (a rate is set). */
  get pacing(): boolean {
    return this.perSecond > 0;
  }

  offer(arrival: Arrival): void {
    if (!this.pacing) {
      this.admit(arrival);
      return;
    }
    const at = this.now();
    this.firstAt ??= at;
    this.queue.push({ arrival, at });
    this.drain();
  }

  /** The rate at `now`: a quarter of it at the first connection, all of it SLOW_START_MS later. */
  private rateAt(now: number): number {
    const into = now - (this.firstAt ?? now);
    if (into >= this.slowStartMs) return this.perSecond;
    return this.perSecond * (SLOW_START_FROM + ((1 - SLOW_START_FROM) * into) / this.slowStartMs);
  }

  /** Lets in as many as the bucket holds, oldest first; looks again in a tick while any wait. */
  drain(): void {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rateAt(now)) / 1000);
    this.last = now;
    const held = this.behind();
    this.noteHeld(now, held && this.waiting > 0);
    while (!held && this.tokens >= 1 && this.head < this.queue.length) {
      const { arrival, at } = this.queue[this.head++];
      if (arrival.destroyed) continue;
      if (now - at > MAX_WAIT_MS) {
        arrival.destroy();
        continue;
      }
      this.tokens--;
      this.admit(arrival);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, TICK_MS);
  }

  private noteHeld(now: number, held: boolean): void {
    if (held) this.heldSince ??= now;
    else if (this.heldSince !== undefined) {
      this.heldBefore += now - this.heldSince;
      this.heldSince = undefined;
    }
  }

  /** Stops looking, and ends the connections still waiting (the broker closing). */
  stop(): void {
    this.noteHeld(this.now(), false);
    clearTimeout(this.timer);
    this.timer = undefined;
    for (let i = this.head; i < this.queue.length; i++) this.queue[i].arrival.destroy();
    this.queue = [];
    this.head = 0;
  }

  private get burst(): number {
    return Math.max(1, (this.perSecond * BURST_MS) / 1000);
  }
}
