import mqtt, { type IPublishPacket, type MqttClient, type Packet } from 'mqtt';
import type { Fence, Leases } from '../cluster/leases';

/**
 * Ingestion from an external broker (MQTT_URL) for a deployment of several processes (docs/operations.md "MQTT"):
 * every process holds a persistent MQTT 5 session in one shared subscription, and acknowledges a message only once
 * its readings are committed, so a process killed mid-batch leaves what it had not stored in its session, unacknowledged.
 * Each session is a lease in the database, renewed every second: when a process dies, another adopts its session
 * (connects with its client id) within seconds and takes its share of the subscription, the messages held for it
 * included; when the process is back it takes its session back. Readings are stored idempotently, so one handled
 * twice (stored, then killed before the acknowledgement) is stored once.
 */

/** What a session hands each message to: resolves once the message's readings are committed. */
export type Accept = (topic: string, payload: Buffer) => Promise<void>;

export interface ExternalOptions {
  url: string;
  /** This process's session: stable across its restarts, distinct between processes. */
  clientId: string;
  /** `$share/<group>/…`; empty: every process receives every message (brokers without shared subscriptions). */
  shareGroup: string;
  topics: string;
  leases: Leases;
  accept: Accept;
  log: (error: unknown, context: string) => void;
}

/** Lease names of sessions. */
const SESSION = 'mqtt-session:';
/** How often a process renews its sessions' leases and looks for orphans; a lease lapses after LEASE_TTL_MS. */
const HEARTBEAT_MS = 1000;
const LEASE_TTL_MS = 5000;
/** How long the broker keeps a session whose process is gone: long enough for a restart or an adoption. */
const SESSION_EXPIRY_S = 24 * 3600;
/**
 * Messages in flight to one session, not yet stored: enough for group commits of some size. The broker is asked for
 * no more (MQTT 5 receive maximum), and the session stops reading at this many besides (Mosquitto 2.0 was seen to
 * send far more when acknowledgements came back in bursts), so a slow database holds the broker back, not memory.
 * bench:deployment: 1,000 made batches of up to 400k points that PostgreSQL took seconds to commit (the stored rate
 * came in bursts, 14.5 s to recover from a kill); 250 stores as much, evenly, and recovers in 5 s.
 */
const RECEIVE_MAXIMUM = 250;
/** At shutdown: the quiet that says the broker has nothing more queued for a session it no longer adds to. */
const QUIET_MS = 300;

type SendPacket = (packet: Packet, cb?: () => void, ...rest: unknown[]) => void;

/** One MQTT session of the shared subscription, acknowledging messages in order once they are stored. */
class Session {
  private readonly waiting = new Map<number, Promise<void>>();
  /** Acknowledgements in the order of their messages (MQTT asks for it), each released when its message is stored. */
  private acks: Array<{ packet: Packet; stored: Promise<boolean>; done?: boolean; ok?: boolean }> = [];
  private lastMessage = Date.now();
  /** Messages handed over and not yet settled; past RECEIVE_MAXIMUM the next message waits (`resume`). */
  private outstanding = 0;
  private resume?: () => void;
  /** Counts connections: what a lost one left in flight is not counted against the next. */
  private connection = 0;

  private constructor(
    readonly client: MqttClient,
    public fence: Fence,
  ) {}

  static async open(options: ExternalOptions, clientId: string, fence: Fence, subscribe: boolean): Promise<Session> {
    const client = mqtt.connect(options.url, {
      clientId,
      clean: false,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: SESSION_EXPIRY_S, receiveMaximum: RECEIVE_MAXIMUM },
      // An adopted session is not reconnected: when its owner takes it back, the broker closes this connection.
      reconnectPeriod: subscribe ? 1000 : 0,
    });
    // Before the connection is up: a resumed session's messages arrive right after CONNACK.
    const session = new Session(client, fence);
    session.interceptAcks(options);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    if (subscribe) {
      const filter = options.shareGroup ? `$share/${options.shareGroup}/${options.topics}` : options.topics;
      await client.subscribeAsync(filter, { qos: 1 });
    }
    return session;
  }

  /** Messages are handled as they come (not one at a time); their PUBACKs wait for their commits. */
  private interceptAcks(options: ExternalOptions): void {
    const { client } = this;
    // mqtt.js sends a PUBACK as soon as handleMessage calls back, and handles the next message only then: its private
    // send is wrapped to hold the PUBACK instead, so messages are stored concurrently and acknowledged once stored.
    const internals = client as unknown as { _sendPacket: SendPacket };
    const send: SendPacket = internals._sendPacket.bind(client);
    client.handleMessage = (packet: IPublishPacket, callback) => {
      this.lastMessage = Date.now();
      this.outstanding += 1;
      const connection = this.connection;
      const stored = options.accept(packet.topic, packet.payload as Buffer);
      void stored.catch(() => undefined).finally(() => this.settled(connection));
      if (packet.qos > 0 && packet.messageId !== undefined) this.waiting.set(packet.messageId, stored);
      else stored.catch((error: unknown) => options.log(error, `message on ${packet.topic}`));
      // The callback lets mqtt.js read on: held while too many are in flight, it holds the broker back over TCP.
      if (this.outstanding < RECEIVE_MAXIMUM) callback();
      else this.resume = callback;
    };
    internals._sendPacket = (packet, cb, ...rest) => {
      if (packet.cmd !== 'puback' || packet.messageId === undefined) return send(packet, cb, ...rest);
      const stored = this.waiting.get(packet.messageId) ?? Promise.resolve();
      this.waiting.delete(packet.messageId);
      const entry: (typeof this.acks)[number] = {
        packet,
        stored: stored.then(
          () => true,
          (error: unknown) => {
            // Unacknowledged: the broker sends it again when this session reconnects.
            options.log(error, 'message not stored');
            return false;
          },
        ),
      };
      this.acks.push(entry);
      void entry.stored.then((ok) => {
        entry.done = true;
        entry.ok = ok;
        this.release(send);
      });
      cb?.();
    };
    // Acknowledgements of a lost connection mean nothing to the next: the broker resends those messages.
    client.on('close', () => {
      this.acks = [];
      this.waiting.clear();
      this.connection += 1;
      this.outstanding = 0;
      this.resume = undefined;
    });
  }

  private settled(connection: number): void {
    if (connection !== this.connection) return;
    this.outstanding -= 1;
    if (this.resume && this.outstanding < RECEIVE_MAXIMUM) {
      const resume = this.resume;
      this.resume = undefined;
      resume();
    }
  }

  private release(send: (packet: Packet) => void): void {
    while (this.acks[0]?.done) {
      const { packet, ok } = this.acks.shift() as (typeof this.acks)[number];
      if (ok && this.client.connected) send(packet);
    }
  }

  /** Acknowledgements still waiting for their commits. */
  get pending(): number {
    return this.acks.length + this.waiting.size;
  }

  /**
   * Leaves the shared subscription for good: no new messages come, those queued for it are handled, then the session
   * ends (expiry 0) and the broker forgets it.
   */
  async finish(options: ExternalOptions): Promise<void> {
    if (!this.client.connected) return this.drop();
    const filter = options.shareGroup ? `$share/${options.shareGroup}/${options.topics}` : options.topics;
    await this.client.unsubscribeAsync(filter);
    while (this.pending > 0 || Date.now() - this.lastMessage < QUIET_MS) await new Promise((resolve) => setTimeout(resolve, 50));
    await this.client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
  }

  /** Closes the connection and keeps the session (what a crash leaves, with the acknowledgements not sent). */
  async drop(): Promise<void> {
    await this.client.endAsync(true);
  }
}

export class ExternalIngest {
  private own?: Session;
  private readonly adopted = new Map<string, Session>();
  private heartbeat?: NodeJS.Timeout;
  private beating?: Promise<void>;
  private stopped = false;

  constructor(private readonly options: ExternalOptions) {}

  async start(): Promise<void> {
    const name = SESSION + this.options.clientId;
    // Its own session, taken back from whoever adopted it while this process was away.
    const fence = await this.options.leases.take(name, LEASE_TTL_MS);
    this.own = await Session.open(this.options, this.options.clientId, fence, true);
    this.heartbeat = setInterval(() => {
      this.beating ??= this.beat()
        .catch((error: unknown) => this.options.log(error, 'session leases'))
        .finally(() => {
          this.beating = undefined;
        });
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Whether this process's own session is connected to the broker (GET /ready). */
  get connected(): boolean {
    return this.own?.client.connected === true;
  }

  /** Sessions this process holds: its own and those it adopted. */
  get sessions(): number {
    return (this.own ? 1 : 0) + this.adopted.size;
  }

  /** Renews the leases held, lets go of sessions taken back, adopts those whose process is gone. */
  private async beat(): Promise<void> {
    const { leases } = this.options;
    // Its own session was adopted while this process stood still (a long pause): it is alive, it takes it back.
    if (this.own) this.own.fence = (await leases.acquire(this.own.fence.name, LEASE_TTL_MS)) ?? (await leases.take(this.own.fence.name, LEASE_TTL_MS));
    for (const [name, session] of this.adopted) {
      const renewed = await leases.acquire(name, LEASE_TTL_MS);
      if (renewed?.token === session.fence.token && session.client.connected) continue;
      this.adopted.delete(name);
      await session.drop();
    }
    if (this.stopped || !this.options.shareGroup) return;
    for (const name of await leases.orphans(SESSION)) {
      const fence = await leases.acquire(name, LEASE_TTL_MS);
      if (!fence || this.stopped) continue;
      try {
        this.adopted.set(name, await Session.open(this.options, name.slice(SESSION.length), fence, false));
      } catch (error) {
        await leases.release(fence);
        throw error;
      }
    }
  }

  /**
   * At shutdown: every session held leaves the subscription once what was sent to it is stored, and ends, so the
   * broker hands the whole share to the other processes; the leases are released, so nobody adopts what is gone.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    await this.beating;
    const sessions = [...(this.own ? [this.own] : []), ...this.adopted.values()];
    await Promise.all(
      sessions.map(async (session) => {
        await session.finish(this.options).catch((error: unknown) => this.options.log(error, 'session end'));
        await this.options.leases.release(session.fence);
      }),
    );
  }
}
