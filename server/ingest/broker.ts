import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { verifyPassword } from '../auth/passwords';
import { inUse } from '../db/in-use';
import type { Platform } from '../platform';
import { type AclRule, allowed, type Identity } from './topics';

/**
 * The embedded MQTT broker (aedes): identities from wit_mqtt_user, topic rights from wit_mqtt_acl and the defaults
 * of each identity's type (server/ingest/topics.ts). Refusals are written to the usual log.
 */
/** What the rest of the platform does with the broker's traffic (the ingestion pipeline and presence). */
export interface BrokerHooks {
  /** Handles a data message; the publisher's QoS 1 acknowledgement waits for it (stored durably). */
  data(topic: string, payload: Buffer): Promise<void>;
  isData(topic: string): boolean;
  /** A device or gateway identity connected (online) or went away (with why). */
  connection(who: Identity, online: boolean, reason: 'connect' | 'disconnect' | 'will' | 'timeout', clientIp?: string): void;
}

export interface Broker {
  aedes: Aedes;
  port: number;
  /** Who a connected client is. */
  identityOf(client: Client): Identity | undefined;
  /** Whether it accepts connections now: false once closing (readiness, server/observe). */
  listening(): boolean;
  /**
   * Stops listening, refuses new data, lets data in flight commit (QoS 1 acknowledged) for up to `drainMs`, then
   * disconnects every client so devices reconnect to another process. Bounded; safe to call more than once.
   */
  close(drainMs?: number): Promise<void>;
}

/** How long data in flight may take to commit at shutdown; past it, unacknowledged messages are resent by devices. */
export const BROKER_DRAIN_MS = 3_000;
/** How long closing connections may take before their sockets are destroyed. */
const DISCONNECT_MS = 2_000;

/** Counts promises in flight and resolves `idle` once none is left or the time is up. */
class InFlight {
  private count = 0;
  private readonly waiters = new Set<() => void>();

  track<T>(work: Promise<T>): Promise<T> {
    this.count += 1;
    return work.finally(() => {
      this.count -= 1;
      if (this.count === 0) for (const wake of this.waiters) wake();
    });
  }

  async idle(ms: number): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}

/** Resolves when `work` does or after `ms`, whichever comes first. */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

interface UserRow {
  tenantId: string;
  username: string;
  password: string;
  clientType: number;
  clientId: string | null;
  isSuperuser: number;
}

const BAD_CREDENTIALS = 4;
const NOT_AUTHORIZED = 5;

function refusal(message: string, code: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

const digest = (password: Buffer) => createHash('sha256').update(password).digest('base64');

/** Reads identities and rules from the database, caching both until their tables change. */
class AccessStore {
  /** username -> the row and the digest of the last password that verified (scrypt is too slow per reconnect) */
  private readonly users = new Map<string, { row: UserRow; verified?: string }>();
  private readonly rules = new Map<string, AclRule[]>();

  constructor(private readonly platform: Platform) {
    platform.events.whenChanged(['wit_mqtt_user'], () => this.users.clear());
    platform.events.whenChanged(['wit_mqtt_acl'], () => this.rules.clear());
  }

  async verify(username: string, password: Buffer): Promise<UserRow | undefined> {
    let entry = this.users.get(username);
    if (!entry) {
      const row = (await this.platform.db
        .selectFrom('wit_mqtt_user')
        .select(['tenantId', 'username', 'password', 'clientType', 'clientId', 'isSuperuser'])
        .where('username', '=', username)
        .$call(inUse)
        .executeTakeFirst()) as UserRow | undefined;
      if (!row) return undefined;
      entry = { row };
      this.users.set(username, entry);
    }
    const hash = digest(password);
    if (entry.verified === hash) return entry.row;
    if (!(await verifyPassword(password.toString('utf8'), entry.row.password))) return undefined;
    entry.verified = hash;
    return entry.row;
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

export async function startBroker(platform: Platform, hooks: BrokerHooks, port: number, host = '0.0.0.0'): Promise<Broker> {
  const store = new AccessStore(platform);
  const identities = new WeakMap<Client, Identity>();
  const inFlight = new InFlight();
  let closing = false;
  const refuse = (tenantId: string, text: string) =>
    platform.logs.write('blade_log_usual', { tenantId, logLevel: 'warn', logId: 'mqtt', logData: text });

  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const name = username ?? '';
      store
        .verify(name, password ?? Buffer.alloc(0))
        .then((row) => {
          if (!row) {
            refuse('000000', `MQTT 连接被拒绝: 用户名或密码错误 (username=${name}, clientId=${client.id})`);
            return done(refusal('bad username or password', BAD_CREDENTIALS), false);
          }
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
      const who = client ? identities.get(client) : undefined;
      if (!who) return done(new Error('not authenticated'));
      store
        .rulesOf(who.tenantId)
        .then(async (rules) => {
          if (!allowed(who, 'publish', packet.topic, rules)) {
            refuse(who.tenantId, `MQTT 发布被拒绝: ${who.username} -> ${packet.topic}`);
            return done(new Error('publish not allowed'));
          }
          if (!hooks.isData(packet.topic)) return done(null);
          // Refused while closing: unacknowledged, the device sends it again to the process it reconnects to.
          if (closing) return done(new Error('broker closing'));
          // aedes acknowledges QoS 1 in this callback: data is acknowledged only once it is stored. The drain at close
          // counts until the acknowledgement is written.
          await inFlight.track(hooks.data(packet.topic, packet.payload as Buffer).then(() => done(null)));
        })
        .catch((error: Error) => done(error));
    },
    authorizeSubscribe: (client, subscription, done) => {
      const who = identities.get(client);
      if (!who) return done(new Error('not authenticated'));
      store
        .rulesOf(who.tenantId)
        .then((rules) => {
          if (allowed(who, 'subscribe', subscription.topic, rules)) return done(null, subscription);
          refuse(who.tenantId, `MQTT 订阅被拒绝: ${who.username} -> ${subscription.topic}`);
          done(null, null); // a refused subscription is answered with failure code 128, the connection stays
        })
        .catch((error: Error) => done(error));
    },
  });

  const timedOut = new WeakSet<Client>();
  const ipOf = (client: Client) => (client.conn as { remoteAddress?: string }).remoteAddress;
  aedes.on('clientReady', (client) => {
    const who = identities.get(client);
    if (who) hooks.connection(who, true, 'connect', ipOf(client));
  });
  aedes.on('keepaliveTimeout', (client) => timedOut.add(client));
  aedes.on('clientDisconnect', (client) => {
    const who = identities.get(client);
    // A client that reconnected under the same id took over: the new connection is the one that counts.
    const current = (aedes as unknown as { clients: Record<string, Client> }).clients[client.id];
    if (!who || (current && current !== client)) return;
    // aedes marks a client that sent DISCONNECT (a clean goodbye); anything else fires its last will.
    const clean = (client as unknown as { _disconnected?: boolean })._disconnected === true;
    hooks.connection(who, false, timedOut.has(client) ? 'timeout' : clean ? 'disconnect' : 'will', ipOf(client));
  });

  const server: Server = createServer(aedes.handle);
  // Sockets that have not completed CONNECT are no aedes client yet: tracked here so closing ends them too.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  let closed: Promise<void> | undefined;
  const close = async (drainMs: number) => {
    closing = true;
    const unlistened = new Promise<void>((resolve) => server.close(() => resolve()));
    await inFlight.idle(drainMs);
    // The last acknowledgements are corked until the next tick (mqtt-packet): let them out before the sockets go.
    await new Promise((resolve) => setImmediate(resolve));
    await within(new Promise<void>((resolve) => aedes.close(() => resolve())), DISCONNECT_MS);
    for (const socket of sockets) socket.destroy();
    await unlistened;
  };
  return {
    aedes,
    port: typeof address === 'object' && address ? address.port : port,
    identityOf: (client) => identities.get(client),
    listening: () => server.listening && !closing,
    close: (drainMs = BROKER_DRAIN_MS) => (closed ??= close(drainMs)),
  };
}
