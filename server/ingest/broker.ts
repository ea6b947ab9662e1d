import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { inUse } from '../db/in-use';
import type { Platform } from '../platform';
import { DeviceCredentials } from './credentials';
import { holdAccepted, pausedArrival } from './accepted';
import { Admission } from './admission';
import { InFlight, InOrder, within } from './in-flight';
import { nextTurn } from '../turn';
import { type AclRule, allowed, type Identity } from './topics';
import { slices } from '../db/slices';
import type { Priority } from './store';

/**
 * The embedded MQTT broker (aedes): identities from wit_mqtt_user, topic rights from wit_mqtt_acl and the defaults
 * of each identity's type (server/ingest/topics.ts). Refusals are written to the usual log.
 */
/** What the rest of the platform does with the broker's traffic (the ingestion pipeline and presence). */
export interface BrokerHooks {
  /**
   * Handles a data message; the publisher's QoS 1 acknowledgement waits for it (stored durably). `priority`: whether
   * its device is catching up, the message sent within CATCH_UP_MS of its connection.
   */
  data(topic: string, payload: Buffer, priority: Priority): Promise<void>;
  isData(topic: string): boolean;
  /** A device or gateway identity connected (online) or went away (with why). */
  connection(who: Identity, online: boolean, reason: 'connect' | 'disconnect' | 'will' | 'timeout', clientIp?: string): void;
  /**
   * Connections the broker ends as it closes (a restart, an upgrade): not a device going offline — it reconnects to
   * another process or to this one restarted, and is taken offline by silence only if it does not. Awaited by close.
   */
  handOver(who: Identity[]): Promise<void>;
  /** Whether ingestion is behind with what it has: new connections wait meanwhile (server/ingest/admission.ts). */
  behind(): boolean;
}

export interface Broker {
  aedes: Aedes;
  /** The port it listens on (the one asked for until it listens; kept once it has closed, for a restart). */
  readonly port: number;
  /**
   * Starts accepting connections. The server calls it once everything else is ready: a fleet reconnecting the moment
   * a restarted process listens would otherwise compete with the rest of its start (bench:connections).
   */
  listen(): Promise<void>;
  /** Persistent sessions of devices that are away, and their expiry. */
  readonly sessions: SessionExpiry;
  /** How long each client has been connected: its messages' priority. */
  readonly ages: ConnectionAges;
  /** Whether it accepts connections now: false once closing (readiness, server/observe). */
  listening(): boolean;
  /** Open TCP connections, those that have not completed their CONNECT included (the metric vigil_mqtt_connections). */
  readonly connections: number;
  /** Connections accepted and waiting for their turn under MQTT_CONNECT_RATE (the metric vigil_mqtt_connections_waiting). */
  readonly waiting: number;
  /** How long connections have waited because ingestion was behind, in all (the metric vigil_mqtt_admission_held_seconds_total). */
  readonly heldSeconds: number;
  /**
   * Stops listening, refuses new data, lets data in flight commit (QoS 1 acknowledged) for up to `drainMs`, then
   * disconnects every client so devices reconnect to another process, giving aedes up to `disconnectMs` to let them
   * go. Bounded; safe to call more than once.
   */
  close(drainMs?: number, disconnectMs?: number): Promise<void>;
}

/** How long data in flight may take to commit at shutdown; past it, unacknowledged messages are resent by devices. */
export const BROKER_DRAIN_MS = 3_000;
/** How long aedes may take to close its clients once their sockets are reset. */
const DISCONNECT_MS = 2_000;

const BAD_CREDENTIALS = 4;
/** The log's words for each refusal of a CONNECT's credentials. */
const REFUSALS = { unknown: '用户名或密码错误', password: '用户名或密码错误', locked: '密码错误次数过多,已暂时锁定' } as const;
const NOT_AUTHORIZED = 5;

function refusal(message: string, code: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

/** Reads topic rules from the database, caching them until their table changes. */
class AccessRules {
  private readonly rules = new Map<string, AclRule[]>();

  constructor(private readonly platform: Platform) {
    platform.events.whenChanged(['wit_mqtt_acl'], () => this.rules.clear());
  }

  async rulesOf(tenantId: string): Promise<AclRule[]> {
    let list = this.rules.get(tenantId);
    if (!list) {
      const rows = await this.platform.db
        .selectFrom('wit_mqtt_acl')
        .select(['username', 'topic', 'action', 'allow'])
        .where('tenantId', '=', tenantId)
        .$call(inUse)
        .orderBy('sort')
        .orderBy('id')
        .execute();
      list = rows.map((r) => ({ username: (r.username as string | null) || null, topic: r.topic, action: r.action, allow: r.allow === 1 }));
      this.rules.set(tenantId, list);
    }
    return list;
  }
}

const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Connections the kernel holds until the broker accepts them, capped by net.core.somaxconn (docs/operations.md
 * "Sizes"). Node's default of 511 overflows when a fleet reconnects at once: the dropped handshakes are retried after
 * 1, 3, 7, 15… s, and 5,000 devices took two minutes to connect to an idle server (bench:connections).
 */
const LISTEN_BACKLOG = 65_535;
const TCP_KEEPALIVE_MS = 60_000;
/**
 * A connection's messages within this long of its CONNECT are the device catching up — the readings it kept while away,
 * and the one it sends as it comes back — and are stored after the live readings of connected devices when both wait
 * (store.ts `SeriesWriter.write`).
 */
export const CATCH_UP_MS = 2_000;
/** How long after a change of identities the connected ones are looked at again. */
const REVOKE_AFTER_MS = 100;
/** How often persistent sessions are looked at for expiry (more often when they expire sooner). */
const SESSION_SWEEP_MS = 60_000;

/** The part of aedes' persistence that holds a client's session (its types leave the persistence untyped). */
interface SessionStore {
  cleanSubscriptions(client: { id: string }): Promise<void>;
  outgoingStream(client: { id: string }): AsyncIterable<{ messageId?: number }>;
  outgoingClearMessageId(client: { id: string }, packet: { messageId?: number }): Promise<unknown>;
}

/**
 * Persistent sessions (clean session off) live in this process's memory: a device that goes away for good would keep
 * its subscriptions, and every QoS 1 message meant for it, until the process ends. One gone longer than
 * MQTT_SESSION_EXPIRY is dropped, as MQTT 5's session expiry and EMQX's default of two hours do.
 */
export class SessionExpiry {
  /** The clock sessions are timed by; tests move it instead of waiting. */
  now: () => number = Date.now;
  private readonly goneSince = new Map<string, number>();
  private readonly store: SessionStore;
  private readonly timer: NodeJS.Timeout;

  constructor(
    aedes: Aedes,
    private readonly expiryMs: number,
    onError: (error: unknown) => void,
  ) {
    // aedes' instance types leave its persistence out.
    this.store = (aedes as unknown as { persistence: SessionStore }).persistence;
    aedes.on('clientDisconnect', (client) => {
      if (!client.clean) this.goneSince.set(client.id, this.now());
    });
    aedes.on('client', (client) => this.goneSince.delete(client.id));
    this.timer = setInterval(() => void this.sweep().catch(onError), Math.min(SESSION_SWEEP_MS, expiryMs));
    this.timer.unref();
  }

  /** Sessions kept for devices that are away (the metric vigil_mqtt_sessions_away). */
  get away(): number {
    return this.goneSince.size;
  }

  /** Drops the sessions of devices away for MQTT_SESSION_EXPIRY or longer (every minute, or sooner when it is shorter). */
  async sweep(): Promise<void> {
    const now = this.now();
    for (const [id, since] of this.goneSince) {
      if (now - since < this.expiryMs) continue;
      await this.store.cleanSubscriptions({ id });
      for await (const packet of this.store.outgoingStream({ id })) await this.store.outgoingClearMessageId({ id }, packet);
      // Forgotten once dropped (a sweep that failed tries again at the next), unless it came back meanwhile.
      if (this.goneSince.get(id) === since) this.goneSince.delete(id);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** When each client's connection came (its CONNACK): whether its messages are it catching up (CATCH_UP_MS). */
export class ConnectionAges {
  /** The clock connections are timed by (ms); tests move it instead of waiting. */
  now: () => number = () => performance.now();
  private readonly readyAt = new WeakMap<Client, number>();

  ready(client: Client): void {
    this.readyAt.set(client, this.now());
  }

  priorityOf(client: Client): Priority {
    const since = this.readyAt.get(client) ?? this.now();
    return this.now() - since < CATCH_UP_MS ? { catchingUpSince: since } : 'live';
  }
}

const ipOf = (client: Client) => (client.conn as { remoteAddress?: string }).remoteAddress;

export async function createBroker(platform: Platform, hooks: BrokerHooks, port: number, host: string): Promise<Broker> {
  const rules = new AccessRules(platform);
  const credentials = new DeviceCredentials(platform);
  let revoking: NodeJS.Timeout | undefined;
  platform.events.whenChanged(['wit_mqtt_user'], () => {
    credentials.forget();
    // Changes come in bursts (an import, a project removed): one look at the connected identities after them.
    revoking ??= setTimeout(() => {
      revoking = undefined;
      endRevoked().catch((error) => platform.logs.error('ingest', error, 'revoked identities'));
    }, REVOKE_AFTER_MS);
  });
  const identities = new WeakMap<Client, Identity>();
  const ages = new ConnectionAges();
  const inFlight = new InFlight();
  // A client's data messages acknowledged in the order it sent them, however they are stored (server/ingest/in-flight.ts).
  const acknowledgements = new InOrder<Client>();
  let closing = false;
  const refuse = (tenantId: string, text: string) =>
    platform.logs.write('blade_log_usual', { tenantId, logLevel: 'warn', logId: 'mqtt', logData: text });

  const aedes = await Aedes.createBroker({
    // A socket that has not sent its CONNECT within 10 s is dropped: a storm of half-open connections holds no slots.
    connectTimeout: CONNECT_TIMEOUT_MS,
    authenticate: (client, username, password, done) => {
      const name = username ?? '';
      const address = ipOf(client) ?? '';
      credentials
        .check(name, password ?? Buffer.alloc(0), address)
        .then((checked) => {
          if ('refused' in checked) {
            refuse(checked.tenantId, `MQTT 连接被拒绝: ${REFUSALS[checked.refused]} (username=${name}, clientId=${client.id}, ip=${address})`);
            return done(refusal('bad username or password', BAD_CREDENTIALS), false);
          }
          const { row } = checked;
          if (row.clientId && row.clientId !== client.id) {
            refuse(row.tenantId, `MQTT 连接被拒绝: 客户端编号不符 (username=${name}, clientId=${client.id})`);
            return done(refusal('client id not allowed', NOT_AUTHORIZED), false);
          }
          identities.set(client, {
            tenantId: row.tenantId,
            username: row.username,
            clientId: client.id,
            clientType: row.clientType,
            isSuperuser: row.isSuperuser === 1,
          });
          done(null, true);
        })
        .catch((error: Error) => done(refusal(error.message, 3), false));
    },
    authorizePublish: (client, packet, done) => {
      const who = client && identities.get(client);
      if (!client || !who) return done(new Error('not authenticated'));
      rules
        .rulesOf(who.tenantId)
        .then(async (list) => {
          if (!allowed(who, 'publish', packet.topic, list)) {
            refuse(who.tenantId, `MQTT 发布被拒绝: ${who.username} -> ${packet.topic}`);
            return done(new Error('publish not allowed'));
          }
          if (!hooks.isData(packet.topic)) return done(null);
          // Refused while closing: unacknowledged, the device sends it again to the process it reconnects to.
          if (closing) return done(new Error('broker closing'));
          // aedes acknowledges QoS 1 in this callback: data is acknowledged only once it is stored. The drain at close
          // counts until the acknowledgement is written.
          const stored = hooks.data(packet.topic, packet.payload as Buffer, ages.priorityOf(client));
          await inFlight.track(acknowledgements.after(client, stored).then(() => done(null)));
        })
        .catch((error: Error) => done(error));
    },
    authorizeSubscribe: (client, subscription, done) => {
      const who = identities.get(client);
      if (!who) return done(new Error('not authenticated'));
      rules
        .rulesOf(who.tenantId)
        .then((list) => {
          if (allowed(who, 'subscribe', subscription.topic, list)) return done(null, subscription);
          refuse(who.tenantId, `MQTT 订阅被拒绝: ${who.username} -> ${subscription.topic}`);
          done(null, null); // a refused subscription is answered with failure code 128, the connection stays
        })
        .catch((error: Error) => done(error));
    },
  });

  const sessions = new SessionExpiry(aedes, platform.config.mqttSessionExpiryMs, (error) => platform.logs.error('ingest', error, 'session expiry'));
  const timedOut = new WeakSet<Client>();
  const handedOver: Identity[] = [];
  aedes.on('clientReady', (client) => {
    ages.ready(client);
    const who = identities.get(client);
    if (who) hooks.connection(who, true, 'connect', ipOf(client));
  });
  aedes.on('keepaliveTimeout', (client) => timedOut.add(client));
  aedes.on('clientDisconnect', (client) => {
    const who = identities.get(client);
    // A client that reconnected under the same id took over: the new connection is the one that counts.
    const current = (aedes as unknown as { clients: Record<string, Client> }).clients[client.id];
    if (!who || (current && current !== client)) return;
    if (closing) return void handedOver.push(who);
    // aedes marks a client that sent DISCONNECT (a clean goodbye); anything else fires its last will.
    const clean = (client as unknown as { _disconnected?: boolean })._disconnected === true;
    hooks.connection(who, false, timedOut.has(client) ? 'timeout' : clean ? 'disconnect' : 'will', ipOf(client));
  });

  /** Ends the connections of identities removed, disabled or bound to another client id; a new password waits for the next CONNECT. */
  const endRevoked = async () => {
    const connected = Object.values((aedes as unknown as { clients: Record<string, Client> }).clients);
    const byName = new Map<string, Client[]>();
    for (const client of connected) {
      const who = identities.get(client);
      if (who) byName.set(who.username, [...(byName.get(who.username) ?? []), client]);
    }
    for (const names of slices([...byName.keys()])) {
      const still = await credentials.inUse(names);
      for (const name of names) {
        for (const client of byName.get(name) ?? []) {
          const bound = still.get(name);
          if (bound === undefined || (bound !== null && bound !== client.id)) {
            refuse(identities.get(client)?.tenantId ?? '000000', `MQTT 连接已断开: 身份已删除、停用或更换了客户端编号 (username=${name}, clientId=${client.id})`);
            client.close();
          }
        }
      }
    }
  };

  // Sockets that have not completed CONNECT are no aedes client yet: tracked here so closing ends them too.
  const sockets = new Set<Socket>();
  const serve = (socket: Socket) => {
    // A device that asked for no MQTT keep-alive (0) and vanished is still found dead by TCP's own probes; small
    // packets (acknowledgements, commands) go out at once rather than waiting for the last one's ACK (Nagle).
    socket.setNoDelay(true).setKeepAlive(true, TCP_KEEPALIVE_MS);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    aedes.handle(socket);
  };
  const admission = new Admission(platform.config.mqttConnectRate, (arrival) => serve(arrival.open()), undefined, hooks.behind);
  const server: Server = createServer({ pauseOnConnect: admission.pacing }, (socket) =>
    admission.pacing ? admission.offer(pausedArrival(socket)) : serve(socket),
  );
  let bound = port;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        if (admission.pacing && !holdAccepted(server, (arrival) => admission.offer(arrival))) {
          platform.log.warn('ingest: MQTT connections waiting for their turn are held as sockets, not handles: this Node.js accepts them otherwise (server/ingest/accepted.ts)');
        }
        const address = server.address();
        if (typeof address === 'object' && address) bound = address.port;
        resolve();
      });
    });
  let closed: Promise<void> | undefined;
  const close = async (drainMs: number, disconnectMs: number) => {
    closing = true;
    admission.stop();
    const unlistened = new Promise<void>((resolve) => server.close(() => resolve()));
    await inFlight.idle(drainMs);
    // The last acknowledgements are corked until the next tick (mqtt-packet): let them out before the sockets go.
    await nextTurn();
    // Reset, not closed: the side that closes keeps each connection in TIME_WAIT for a minute, and a returning
    // device whose new connection reuses one's addresses and ports (behind a NAT; one host's devices) may have its SYN
    // answered for the old connection and resent only after 1, 3, 7 s. That was most of a 20,000-device restart's
    // tail (bench:connections: 13,000 SYNs resent, none since). A PUBACK still unsent is lost with the connection:
    // the device sends that reading again, as after any lost connection.
    for (const socket of sockets) socket.resetAndDestroy();
    await within(new Promise<void>((resolve) => aedes.close(() => resolve())), disconnectMs);
    await unlistened;
    await hooks.handOver(handedOver.splice(0)).catch((error) => platform.logs.error('ingest', error, 'presence at close'));
  };
  return {
    aedes,
    get port() {
      return bound;
    },
    listen,
    sessions,
    ages,
    listening: () => server.listening && !closing,
    get connections() {
      // The ones waiting for their turn are no socket yet (accepted.ts).
      return sockets.size + admission.waiting;
    },
    get waiting() {
      return admission.waiting;
    },
    get heldSeconds() {
      return admission.heldMs / 1000;
    },
    close: (drainMs = BROKER_DRAIN_MS, disconnectMs = DISCONNECT_MS) => {
      clearTimeout(revoking);
      sessions.stop();
      return (closed ??= close(drainMs, disconnectMs));
    },
  };
}
