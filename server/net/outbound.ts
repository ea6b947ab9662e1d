import { lookup as dnsLookup, promises as dns, type LookupAddress } from 'node:dns';
import { createConnection, isIP, type LookupFunction } from 'node:net';
import mqtt, { type IClientOptions, MqttClient } from 'mqtt';
import { Agent, buildConnector, fetch, type RequestInit, type Response } from 'undici';
import { addressKind, allowedRanges, type Cidr, inCidr, parseAddress } from './addresses';

/**
 * The outbound guard (docs/push.md, docs/third-party.md "Outbound addresses"): addresses tenants configure — push
 * targets, third-party platforms — may not reach the platform's own network (SSRF). A literal address is judged as
 * it is; a name is judged by every address it resolves to, each time a connection is made, and the connection goes to
 * the addresses judged (a custom `lookup`), so a second DNS answer cannot slip a private address in.
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
    if (this.config.allowPrivate) return undefined;
    let host: string;
    try {
      host = new URL(address.trim()).hostname;
    } catch {
      return undefined;
    }
    if (!host) return undefined;
    if (isIP(unbracket(host))) return this.literal(host)?.message;
    const found = await dns.lookup(host, { all: true, verbatim: true }).catch(() => [] as LookupAddress[]);
    return found.some((a) => this.refuses(a.address)) ? refusedMessage(host) : undefined;
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

  /** fetch through the guard: literal hosts are judged before connecting, names by the lookup. */
  fetch(url: string | URL, init: RequestInit): Promise<Response> {
    return fetch(url, { ...init, dispatcher: this.dispatcher() });
  }

  private dispatcher(): Agent {
    if (!this.agent) {
      const connect = buildConnector({ lookup: this.lookup });
      this.agent = new Agent({
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
    const client = new MqttClient(() => createConnection({ host, port, lookup }), { ...options, protocol: 'mqtt', hostname: host, port });
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
