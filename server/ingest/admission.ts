import type { Socket } from 'node:net';

/** How often a waiting queue is looked at: 5 ms at 2,200/s lets ~11 connections in at a time. */
const TICK_MS = 5;
/**
 * What the bucket holds at most, in time at the rate: a few ticks, so a tick that fires late (a busy event loop) loses
 * none of the rate; a bucket of one tick measured 1,830/s at 2,200.
 */
const BURST_MS = 20;
/**
 * How long a connection may wait for its turn: past it the device has given up (mqtt.js waits 30 s for its CONNACK)
 * and will come again; reading its CONNECT would only cost the broker.
 */
const MAX_WAIT_MS = 30_000;

/**
 * Lets new connections reach the broker at most `perSecond` a second, evenly (a token bucket refilled every few
 * milliseconds, holding at most 20 ms worth), as EMQX's max_conn_rate does. A fleet reconnecting at once (a
 * restart, a network back) otherwise arrives in bursts of thousands: their CONNECTs and first readings filled single
 * turns of the event loop for hundreds of milliseconds and batches of 5,000 messages, and the devices already back
 * waited ~1 s for their acknowledgements (docs/benchmarks.md "Connections, twenty-ninth session"). The sockets wait
 * accepted, unread (`pauseOnConnect`); their CONNECT timeout starts when they are let in. 0 lets every one in at once.
 */
export class Admission {
  private tokens: number;
  private last: number;
  private queue: Array<{ socket: Socket; at: number }> = [];
  private head = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly perSecond: number,
    private readonly admit: (socket: Socket) => void,
    /** The clock the bucket is refilled by (ms); tests move it instead of waiting. */
    private readonly now: () => number = () => performance.now(),
    /**
     * True while the platform is behind with what it has (ingestion's writer): nobody is let in until it catches up.
     * A device back from an outage brings the readings it kept, and let in faster than they can be stored they made
     * the group commits long and every connected device wait behind them (bench:connections).
     */
    private readonly behind: () => boolean = () => false,
  ) {
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Connections accepted and waiting for their turn (the metric vigil_mqtt_connections_waiting). */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Whether sockets must be accepted paused for it (a rate is set). */
  get pacing(): boolean {
    return this.perSecond > 0;
  }

  offer(socket: Socket): void {
    if (!this.pacing) {
      this.admit(socket);
      return;
    }
    this.queue.push({ socket, at: this.now() });
    this.drain();
  }

  /** Lets in as many as the bucket holds, oldest first; looks again in a tick while any wait. */
  drain(): void {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.perSecond) / 1000);
    this.last = now;
    const held = this.behind();
    while (!held && this.tokens >= 1 && this.head < this.queue.length) {
      const { socket, at } = this.queue[this.head++];
      if (socket.destroyed) continue;
      if (now - at > MAX_WAIT_MS) {
        socket.destroy();
        continue;
      }
      this.tokens--;
      this.admit(socket);
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

  /** Stops looking; the sockets still waiting are the caller's to end (the broker resets them at close). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private get burst(): number {
    return Math.max(1, (this.perSecond * BURST_MS) / 1000);
  }
}
