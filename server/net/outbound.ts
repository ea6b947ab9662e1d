import { lookup as dnsLookup, promises as dns, type LookupAddress } from 'node:dns';
import { createConnection, isIP, type LookupFunction, type Socket } from 'node:net';
import mqtt, { type IClientOptions, MqttClient } from 'mqtt';
import type { Agent, RequestInit, Response } from 'undici';
import { addressKind, allowedRanges, type Cidr, inCidr, parseAddress } from './addresses';

/**
 * The outbound guard (docs/push.md "Outbound addresses"): addresses tenants configure — push targets, third-party
 * platforms, alarm webhooks, SMTP servers, SMS gateways, S3 endpoints — may not reach the platform's own network
 * (SSRF). A literal address is judged as it is; a name is judged by every address it resolves to, each time a
 * connection is made, and the connection goes to the addresses judged (a custom `lookup`), so a second DNS answer
 * cannot slip a private address in.
 */

export interface OutboundConfig {
  /** OUTBOUND_ALLOW_PRIVATE: every address may be reached (targets on a private network). */
  allowPrivate: boolean;
  /** OUTBOUND_ALLOW: ranges (CIDR) that may be reached although they are private. */
  allow: string[];
}

export const refusedMessage = (host: string) => `目标地址 ${host} 指向内网或本机,已拒绝 (OUTBOUND_ALLOW_PRIVATE)`;

export class OutboundRefused extends Error {
  /** mqtt.js passes on only stream errors that carry a code; without one a refusal would end as a bare close. */
  readonly code = 'ERR_OUTBOUND_REFUSED';

  constructor(readonly host: string) {
    super(refusedMessage(host));
    this.name = 'OutboundRefused';
  }
}

/** The refusal behind an error (fetch wraps it as `cause`), or undefined. */
export function refusalOf(error: unknown): OutboundRefused | undefined {
  let current = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof OutboundRefused) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

type LookupCallback = Parameters<LookupFunction>[2];

/** What nodemailer hands its `getSocket` (the transport's options). */
export interface SmtpSocketRequest {
  host?: string;
  port?: number;
  secure?: boolean;
  connectionTimeout?: number;
}

/** nodemailer's `getSocket` callback: `connection` is a connected socket it speaks SMTP over (and upgrades to TLS). */
export type SmtpSocketCallback = (error: Error | null, socket?: { connection: Socket }) => void;

const SMTP_CONNECT_TIMEOUT_MS = 10_000;

export class OutboundGuard {
  private readonly allow: Cidr[];
  private agent?: Agent;

  constructor(private readonly config: OutboundConfig) {
    this.allow = allowedRanges(config.allow);
  }

  /** Whether a connection to this IP address is refused. */
  refuses(address: string): boolean {
    if (this.config.allowPrivate) return false;
    const bytes = parseAddress(address);
    if (!bytes) return true;
    if (this.allow.some((range) => inCidr(bytes, range))) return false;
    return addressKind(bytes) !== undefined;
  }

  /** The refusal of a literal address; names are judged when they are resolved. */
  literal(host: string): OutboundRefused | undefined {
    const bare = unbracket(host);
    return isIP(bare) && this.refuses(bare) ? new OutboundRefused(host) : undefined;
  }

  /**
   * For saving and testing: why a URL's host may not be reached, resolving a name. A name that does not resolve now
   * is not refused (the connection will say so, and is judged again then).
   */
  async problemOf(address: string): Promise<string | undefined> {
    let host: string;
    try {
      host = new URL(address.trim()).hostname;
    } catch {
      return undefined;
    }
    return this.hostProblem(host);
  }

  /** As problemOf, for a bare host name or address (an SMTP server). */
  async hostProblem(host: string): Promise<string | undefined> {
    const name = host.trim();
    if (this.config.allowPrivate || !name) return undefined;
    if (isIP(unbracket(name))) return this.literal(name)?.message;
    const found = await dns.lookup(name, { all: true, verbatim: true }).catch(() => [] as LookupAddress[]);
    return found.some((a) => this.refuses(a.address)) ? refusedMessage(name) : undefined;
  }

  /** A `dns.lookup` for net/tls/http connections: fails when any address of the name is refused. */
  readonly lookup: LookupFunction = (hostname, options, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      if (addresses.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (addresses.some((a) => this.refuses(a.address))) return callback(new OutboundRefused(hostname), '');
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };

  /**
   * fetch through the guard: literal hosts are judged before connecting, names by the lookup; so is every redirect
   * (it goes through the same dispatcher). A refusal rejects as the OutboundRefused itself, not as `fetch failed`.
   */
  async fetch(url: string | URL, init: RequestInit): Promise<Response> {
    try {
      const [{ fetch }, dispatcher] = await Promise.all([import('undici'), this.dispatcher()]);
      return await fetch(url, { ...init, dispatcher });
    } catch (error) {
      throw refusalOf(error) ?? error;
    }
  }

  /** A TCP connection through the guard. Throws OutboundRefused for a literal address; a name fails in the lookup. */
  connect(host: string, port: number): Socket {
    const refused = this.literal(host);
    if (refused) throw refused;
    return createConnection({ host: unbracket(host), port, lookup: this.lookup });
  }

  /**
   * nodemailer's `getSocket`: the SMTP server is reached through connect(), so the name is judged at every
   * connection (nodemailer would otherwise resolve it itself); STARTTLS and implicit TLS upgrade this socket.
   */
  readonly smtpSocket = (request: SmtpSocketRequest, callback: SmtpSocketCallback): void => {
    let socket: Socket;
    try {
      socket = this.connect(request.host || 'localhost', Number(request.port) || (request.secure ? 465 : 587));
    } catch (error) {
      callback(error as Error);
      return;
    }
    const fail = (error: Error) => {
      socket.destroy();
      callback(error);
    };
    const timedOut = () => fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' }));
    socket.setTimeout(request.connectionTimeout ?? SMTP_CONNECT_TIMEOUT_MS, timedOut);
    socket.once('error', fail);
    socket.once('connect', () => {
      // nodemailer sets its own socket timeout from here on: ours must not fire on it.
      socket.setTimeout(0);
      socket.off('timeout', timedOut);
      socket.off('error', fail);
      callback(null, { connection: socket });
    });
  };

  /** undici is loaded with the first request out, not at start. */
  private async dispatcher(): Promise<Agent> {
    if (!this.agent) {
      const { Agent, buildConnector } = await import('undici');
      const connect = buildConnector({ lookup: this.lookup });
      this.agent ??= new Agent({
        connect: (options, callback) => {
          const refused = this.literal(options.hostname);
          if (refused) callback(refused, null);
          else connect(options, callback);
        },
      });
    }
    return this.agent;
  }

  /**
   * An MQTT client through the guard (every reconnection resolves and is judged again). Throws OutboundRefused for a
   * literal address. mqtt.js's TCP stream passes no `lookup` on, so mqtt:// sockets are made here; its TLS and
   * WebSocket streams pass the options on to node:tls and node:http.
   */
  mqtt(brokerUrl: string, options: IClientOptions): MqttClient {
    const url = new URL(brokerUrl);
    const refused = this.literal(url.hostname);
    if (refused) throw refused;
    const lookup = this.lookup;
    if (url.protocol !== 'mqtt:') return mqtt.connect(brokerUrl, { ...options, lookup, wsOptions: { lookup } } as IClientOptions);
    const host = unbracket(url.hostname);
    const port = Number(url.port || 1883);
    const client = new MqttClient(() => this.connect(host, port), { ...options, protocol: 'mqtt', hostname: host, port });
    // As mqtt.connect does: an error nobody listens to must not end the process.
    client.on('error', () => undefined);
    return client;
  }
}

const guards = new WeakMap<OutboundConfig, OutboundGuard>();

/** The one guard of a configuration (one connection pool per server). */
export function outboundGuard(config: OutboundConfig): OutboundGuard {
  let guard = guards.get(config);
  if (!guard) {
    guard = new OutboundGuard(config);
    guards.set(config, guard);
  }
  return guard;
}
